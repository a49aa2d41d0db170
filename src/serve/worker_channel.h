#pragma once
// What the renderer's listener and a worker process say to each other, over
// the SOCK_SEQPACKET socket pair the listener starts the worker with: one
// message a packet, a key/value list in the hello's encoding (magic
// "STRATAW\n"), descriptors beside it.
//
//   worker -> listener   {message: ready}   its driver is loaded and initialised
//                        {message: failed, error}   it could not start
//                        {message: ended, reason}   it ended its client itself (the
//                                                   renderer stopping), just before it exits
//   listener -> worker   {message: client, role: process|thread, session, session_key
//                         (process), program, pid, address, features, functions
//                         (process), stream (transport::StreamState)} + the
//                         stream's descriptors: a client's connection, its
//                         hello read and accepted, to answer and serve

#include <string>
#include <vector>

#include "stream/wire.h"

namespace strata::serve {

// The descriptor a worker finds its end of the socket pair at.
inline constexpr int kWorkerChannelFd = 3;

bool SendControl(int fd, const stream::wire::Hello& message, const std::vector<int>& descriptors = {});
// 1: a message (with its descriptors, owned by the caller); 0: the other
// side closed; -1: a malformed message or a failed read (*error says which).
int ReceiveControl(int fd, stream::wire::Hello* message, std::vector<int>* descriptors, std::string* error);

}  // namespace strata::serve
