#pragma once
// Where records come from, one at a time in the order they are to run: a
// trace file (OrderedRecordReader) or, for the renderer, a connection.

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
};

}  // namespace strata::stream
