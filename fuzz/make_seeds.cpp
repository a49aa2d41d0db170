// Writes the fuzz targets' seed corpora at build time from traces of the
// sample apps (real call streams, not hand-made ones), one directory per
// target:
//   make_seeds OUT_DIR TRACE...
// trace_file: each trace, and each cut at its middle; call_decoder and
// executor: the first records of each trace (context setup and the first
// draws) as one run; renderer: a client's process hello and those records
// as messages; client_replies: the replies the traced calls got, as a
// renderer would send them; ring and control: a few inputs of their format.
// The executor's and the renderer's also come with one call of every
// function whose arguments are scalars and input arrays after those first
// records (the app's context current), so that every handler generated for
// such calls (host/fast_call.h) runs from the first input, not only the
// apps' own; the renderer's also with those calls as one word run.
#include <sys/stat.h>

#include <bit>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "stream/byte_writer.h"
#include "stream/call_decoder.h"
#include "stream/call_encoder.h"
#include "stream/ordered_reader.h"
#include "stream/record_format.h"
#include "stream/wire.h"
#include "stream/word_run.h"
#include "strata/api/codec.h"

using namespace strata;

namespace {

// Seeds stay small: libFuzzer's input length limit follows the largest seed.
constexpr size_t kRunBytes = 24 * 1024;
constexpr size_t kMessageBytes = 8 * 1024;
// The app's records before the calls of every function: those that keep a
// seed under fuzz.sh's -max_len (64 KiB) with the calls after them (9 KiB
// of calls with scalars, 24 KiB of calls with arrays), and for the renderer
// also the client's hello (25 KiB).
constexpr size_t kSetupBytes = 32 * 1024;
constexpr size_t kClientSetupBytes = 12 * 1024;

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

bool IsScalar(api::ArgKind kind) {
  return kind != api::ArgKind::kVoid && kind != api::ArgKind::kHandle && kind != api::ArgKind::kPointer &&
         kind != api::ArgKind::kString;
}

// An array the call reads from the app (its bytes in the record).
bool IsInputArray(int slot, int param) {
  const api::FunctionCodec& codec = api::kCodec[slot];
  return api::kFunctions[slot].params[param].kind == api::ArgKind::kPointer && codec.captures != nullptr &&
         codec.captures[param] == api::Capture::kIn;
}

// What an input array holds in the seeds: enough for a count of 1 of the
// largest element GLES passes (a 4x4 matrix of floats), all zeros.
constexpr uint8_t kArrayBytes[64] = {};

// A value a parameter of `param`'s kind may take: its enum group's first
// member where it has one (a valid enum, so that the driver does more than
// refuse it), else a small number.
stream::DecodedValue PlausibleValue(const api::ParamInfo& param) {
  stream::DecodedValue v;
  v.kind = param.kind;
  if (param.kind == api::ArgKind::kPointer) {
    v.u = 0x1000;  // an address in the app; the bytes stand for it
    v.has_in = true;
    v.in = kArrayBytes;
  } else if (param.kind == api::ArgKind::kFloat || param.kind == api::ArgKind::kDouble) {
    v.f = 0.5;
  } else if (param.kind == api::ArgKind::kInt) {
    v.i = 1;
  } else if ((param.kind == api::ArgKind::kEnum || param.kind == api::ArgKind::kBitfield) &&
             param.enum_group > api::kGlNames && api::kEnumGroups[param.enum_group].count > 0) {
    v.u = api::kEnumMembers[api::kEnumGroups[param.enum_group].first].value;
  } else {
    v.u = 1;
  }
  return v;
}

// One call record of every GLES function whose result is a scalar and whose
// arguments are all scalars (`arrays` false) or scalars and at least one
// input array (`arrays` true), in `context`, numbered and timed on from
// `run` (the calls before, or none: a run of their own).
stream::ByteBuffer EveryCall(bool arrays, uint64_t context, stream::CallRun run) {
  stream::ByteBuffer out;
  uint64_t sequence = run.last_sequence, start_ns = run.last_start_ns;
  for (int slot = 0; slot < api::kFunctionCount; ++slot) {
    const api::FunctionInfo& info = api::kFunctions[slot];
    bool takes = !info.is_egl && (info.return_kind == api::ArgKind::kVoid || IsScalar(info.return_kind));
    int array_count = 0;
    for (int i = 0; takes && i < info.param_count; ++i) {
      const bool array = IsInputArray(slot, i);
      array_count += array;
      takes = IsScalar(info.params[i].kind) || array;
    }
    if (!takes || (array_count > 0) != arrays) continue;
    stream::DecodedCall call;
    call.function_id = static_cast<uint64_t>(slot);  // this build's ids are its slots
    call.slot = slot;
    call.context = context;
    call.sequence = ++sequence;
    call.start_ns = start_ns += 1000;
    call.duration_ns = 500;
    for (int i = 0; i < info.param_count; ++i) call.args.push_back(PlausibleValue(info.params[i]));
    stream::EncodeCall(call, run, out);
  }
  return out;
}

// One word run (stream/word_run.h) of a call of every function a run may
// hold (those with an array, an array of 64 bytes), in `context`, its
// message's only record: the renderer's seed of the handlers run from words
// where they lie.
stream::ByteBuffer EveryWordCall(uint64_t context) {
  stream::ByteBuffer out;
  stream::WordRunWriter run;
  stream::CallRun numbers;
  run.Open(out, 1, context, 1000);
  for (int slot = 0; slot < api::kFunctionCount; ++slot) {
    if (!stream::kWordCalls[slot]) continue;
    const api::FunctionInfo& info = api::kFunctions[slot];
    std::vector<stream::PreparedWord> words(info.param_count);
    for (int i = 0; i < info.param_count; ++i) {
      const stream::DecodedValue v = PlausibleValue(info.params[i]);
      if (v.kind == api::ArgKind::kInt) {
        words[i].i = v.i;
      } else if (v.kind == api::ArgKind::kFloat) {
        words[i].u = std::bit_cast<uint32_t>(static_cast<float>(v.f));
      } else if (v.kind == api::ArgKind::kDouble) {
        words[i].d = v.f;
      } else {
        words[i].u = v.u;
      }
    }
    // A function of kWordArrayCalls: 64 bytes of an array after its words (its pointer's word not 0).
    static const std::vector<uint8_t> array(64, 0x3f);
    const bool with_array = stream::kWordArrayCalls[slot];
    for (int i = 0; with_array && i < info.param_count; ++i) {
      if (info.params[i].kind == api::ArgKind::kPointer) words[i].u = 0x1000;
    }
    run.Add(out, numbers, static_cast<uint64_t>(slot), words.data(), static_cast<uint32_t>(words.size()),
            with_array ? array.data() : nullptr, with_array ? array.size() : 0);
  }
  run.Close(out);
  return out;
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
    stream::CallRun last;  // where the run's last call left its thread's numbering
    uint64_t context = 0;
    // The run without the records too large for the every-call seeds (texture data).
    stream::ByteBuffer setup, client_setup;
    while (reader->Next(&record) && run.size < kRunBytes) {
      PutRecord(run, record.type, record.payload);
      if (setup.size + record.payload.size() < kSetupBytes) PutRecord(setup, record.type, record.payload);
      if (client_setup.size + record.payload.size() < kClientSetupBytes) {
        PutRecord(client_setup, record.type, record.payload);
      }
      PutRecord(message, record.type, record.payload);
      if (message.size >= kMessageBytes) {
        PutMessage(client, message.bytes());
        message.Clear();
      }
      if (record.type != stream::RecordType::kCall ||
          !decoder.Decode(record.payload, record.thread_id, record.chunk, &call, &error)) {
        continue;
      }
      last = {1, call.sequence, call.start_ns};
      context = call.context;
      if (!call.has_reply || reply_seeds >= 40) continue;
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

    for (bool arrays : {false, true}) {
      const std::string seed_name = name + (arrays ? ".every-array-call" : ".every-scalar-call");
      // The executor target runs an input through Execute, the generated
      // handlers or the calls kept decoded by its length modulo 4 (0, 1, 3):
      // one seed each, a byte of a record cut short after the calls.
      std::vector<uint8_t> every(setup.bytes().begin(), setup.bytes().end());
      const stream::ByteBuffer calls = EveryCall(arrays, context, last);
      every.insert(every.end(), calls.bytes().begin(), calls.bytes().end());
      for (size_t remainder : {0, 1, 3}) {
        std::vector<uint8_t> seed = every;
        while (seed.size() % 4 != remainder) seed.push_back(static_cast<uint8_t>(stream::RecordType::kCall));
        Write(out + "/executor/" + seed_name + "." + std::to_string(remainder), seed);
      }
      // The app's records as one message, the calls as another: a message's
      // first call carries absolute numbers.
      std::vector<uint8_t> every_client = stream::wire::EncodeHello(stream::wire::kClientMagic, hello);
      PutMessage(every_client, client_setup.bytes());
      PutMessage(every_client, EveryCall(arrays, context, {}).bytes());
      PutMessage(every_client, {});
      Write(out + "/renderer/" + seed_name, every_client);
    }
    stream::wire::Hello words_hello = hello;
    words_hello.values["features"] = "records-v1,replies-v1,words-v1,words-v2";
    std::vector<uint8_t> every_word = stream::wire::EncodeHello(stream::wire::kClientMagic, words_hello);
    PutMessage(every_word, client_setup.bytes());
    PutMessage(every_word, EveryWordCall(context).bytes());
    PutMessage(every_word, {});
    Write(out + "/renderer/" + name + ".every-word-call", every_word);
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
