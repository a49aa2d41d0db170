// Writes the fuzz targets' seed corpora at build time from traces of the
// sample apps (real call streams, not hand-made ones), one directory per
// target:
//   make_seeds OUT_DIR TRACE...
// trace_file: each trace, and each cut at its middle; call_decoder and
// executor: the first records of each trace (context setup and the first
// draws) as one run; renderer: a client's process hello and those records
// as messages; client_replies: the replies the traced calls got, as a
// renderer would send them; ring and control: a few inputs of their format.
#include <sys/stat.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "stream/byte_writer.h"
#include "stream/call_decoder.h"
#include "stream/ordered_reader.h"
#include "stream/record_format.h"
#include "stream/wire.h"

using namespace strata;

namespace {

// Seeds stay small: libFuzzer's input length limit follows the largest seed.
constexpr size_t kRunBytes = 24 * 1024;
constexpr size_t kMessageBytes = 8 * 1024;

bool Write(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) std::fprintf(stderr, "make_seeds: error: cannot write %s\n", path.c_str());
  return static_cast<bool>(out);
}

std::vector<uint8_t> ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void PutRecord(stream::ByteBuffer& out, stream::RecordType type, std::span<const uint8_t> payload) {
  stream::ByteWriter w(&out);
  const size_t at = w.BeginRecord(static_cast<uint8_t>(type));
  w.Raw(payload.data(), payload.size());
  w.EndRecord(at);
}

void PutMessage(std::vector<uint8_t>& out, std::span<const uint8_t> records) {
  uint8_t header[stream::wire::kMessageHeaderBytes];
  stream::wire::PutMessageHeader(header, static_cast<uint32_t>(records.size()));
  out.insert(out.end(), header, header + sizeof header);
  out.insert(out.end(), records.begin(), records.end());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: make_seeds OUT_DIR TRACE...\n");
    return 2;
  }
  const std::string out = argv[1];
  for (const char* target : {"trace_file", "call_decoder", "executor", "renderer", "client_replies", "ring", "control"}) {
    mkdir((out + "/" + target).c_str(), 0755);
  }
  for (int t = 2; t < argc; ++t) {
    const std::string trace = argv[t];
    const std::string name = trace.substr(trace.rfind('/') + 1);
    std::vector<uint8_t> file = ReadAll(trace);
    if (!Write(out + "/trace_file/" + name, file)) return 1;
    file.resize(file.size() / 2);
    Write(out + "/trace_file/" + name + ".cut", file);

    std::string error;
    auto reader = stream::OrderedRecordReader::Open(trace, &error);
    if (!reader) {
      std::fprintf(stderr, "make_seeds: error: %s\n", error.c_str());
      return 1;
    }
    stream::CallDecoder decoder(reader->functions());
    stream::DecodedCall call;
    stream::ByteBuffer run, message, replies;
    std::vector<uint8_t> client;
    stream::wire::Hello hello;
    hello.values = {{"role", "process"}, {"program", name}, {"pid", "1"},
                    {"functions", stream::FunctionTable::OwnNames()},
                    {"features", "records-v1,replies-v1"}};
    client = stream::wire::EncodeHello(stream::wire::kClientMagic, hello);
    int reply_seeds = 0;
    stream::Record record;
    while (reader->Next(&record) && run.size < kRunBytes) {
      PutRecord(run, record.type, record.payload);
      PutRecord(message, record.type, record.payload);
      if (message.size >= kMessageBytes) {
        PutMessage(client, message.bytes());
        message.Clear();
      }
      if (record.type != stream::RecordType::kCall ||
          !decoder.Decode(record.payload, record.thread_id, record.chunk, &call, &error) || !call.has_reply ||
          reply_seeds >= 40) {
        continue;
      }
      stream::wire::Reply reply;
      reply.sequence = 1;
      reply.result = call.result;
      reply.outputs = call.args;
      replies.Clear();
      stream::wire::EncodeReply(replies, call.slot, reply);  // a whole reply record
      std::vector<uint8_t> seed = {static_cast<uint8_t>(call.slot), static_cast<uint8_t>(call.slot >> 8)};
      seed.insert(seed.end(), replies.bytes().begin(), replies.bytes().end());
      Write(out + "/client_replies/" + name + "." + std::to_string(reply_seeds++), seed);
    }
    if (message.size > 0) PutMessage(client, message.bytes());
    PutMessage(client, {});  // the goodbye of a client thread that ends on purpose
    const std::vector<uint8_t> records(run.bytes().begin(), run.bytes().end());
    Write(out + "/call_decoder/" + name, records);
    Write(out + "/executor/" + name, records);
    Write(out + "/renderer/" + name, client);
  }

  // The ring: a well-formed message in the ring with a head that covers it, then reads.
  std::vector<uint8_t> ring = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  const std::vector<uint8_t> operations = {0, 4, 0, 1, 12, 0, 2, 0, 0, 3, 4, 0, 5, 1, 0, 0, 16, 0, 0xff};
  const std::string text = "a message of some length for the ring";
  const uint32_t head = static_cast<uint32_t>(4 + text.size());
  std::memcpy(ring.data(), &head, sizeof head);
  ring.insert(ring.end(), operations.begin(), operations.end());
  uint8_t header[4];
  stream::wire::PutMessageHeader(header, static_cast<uint32_t>(text.size()));
  ring.insert(ring.end(), header, header + 4);
  ring.insert(ring.end(), text.begin(), text.end());
  Write(out + "/ring/message", ring);
  ring[0] = 0xff, ring[1] = 0xff, ring[2] = 0xff, ring[3] = 0x7f;  // a head far past the ring
  Write(out + "/ring/impossible_head", ring);

  const char* commands[] = {"status", "detach", "attach lz4 file:/tmp/x.strace", "attach zstd listen:unix:@strata-x",
                            "attach none listen:tcp:127.0.0.1:7070", "attach lz4 listen:tcp:[::1]:0"};
  int n = 0;
  for (const char* command : commands) {
    const std::string line = command;
    Write(out + "/control/" + std::to_string(n++), std::vector<uint8_t>(line.begin(), line.end()));
  }
  return 0;
}
