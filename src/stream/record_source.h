#pragma once
// Where records come from, one at a time in the order they are to run: a
// trace file (OrderedRecordReader) or, for the renderer, a connection.

#include <cstdint>
#include <memory>
#include <string>

#include "stream/record_reader.h"

namespace strata::stream {

class RecordSource {
 public:
  virtual ~RecordSource() = default;
  // The next record; false at the end (see error()). Its payload is valid until the next call.
  virtual bool Next(Record* record) = 0;
  // Empty after a clean end; otherwise what stopped the records.
  virtual const std::string& error() const = 0;
  // The records stopped because the stream was cut short (not damaged).
  virtual bool truncated() const = 0;
  // For the record Next() just gave: something that, while held, keeps the
  // payloads of its chunk valid past the next Next() (so a reader ahead can
  // hand them on without copying them). Null: they are not kept (the default).
  virtual std::shared_ptr<const void> PayloadOwner(uint64_t /*chunk*/) const { return nullptr; }
  // How many bytes after each payload PayloadOwner keeps valid are
  // readable too (stream::SlackReader reads records in place with
  // kSlackBytes of them); 0 by default.
  virtual size_t PayloadSlack() const { return 0; }
};

}  // namespace strata::stream
