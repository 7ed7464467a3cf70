// A small streaming JSON writer for d2s's reports (diff, check): objects one key per
// line, indented by two spaces; arrays of plain values on one line. No JSON library
// is among d2s's dependencies and the reports need only this much.
//
//   JsonWriter w;
//   w.begin_object().key("entry").value("foo1").key("lines").begin_array(true);
//   w.value(3).value(4).end_array().end_object();
//   std::string text = w.str();
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/yaml_io.h"

namespace d2s::convert {

class JsonWriter {
 public:
  JsonWriter& begin_object() {
    open('{', false);
    return *this;
  }
  JsonWriter& end_object() {
    close('}');
    return *this;
  }
  // `inline_items`: the array's items go on one line (plain values only).
  JsonWriter& begin_array(bool inline_items = false) {
    open('[', inline_items);
    return *this;
  }
  JsonWriter& end_array() {
    close(']');
    return *this;
  }
  JsonWriter& key(std::string_view k) {
    item();
    quote(k);
    out_ += ": ";
    after_key_ = true;
    return *this;
  }
  JsonWriter& value(std::string_view s) {
    item();
    quote(s);
    return *this;
  }
  JsonWriter& value(const char* s) { return value(std::string_view(s)); }
  JsonWriter& value(const std::string& s) { return value(std::string_view(s)); }
  JsonWriter& value(bool b) {
    item();
    out_ += b ? "true" : "false";
    return *this;
  }
  JsonWriter& value(int v) { return value(static_cast<int64_t>(v)); }
  JsonWriter& value(size_t v) { return value(static_cast<int64_t>(v)); }
  JsonWriter& value(int64_t v) {
    item();
    out_ += std::to_string(v);
    return *this;
  }
  // JSON has no NaN or infinities: they are written as the strings "nan", "inf", "-inf".
  JsonWriter& value(double v) {
    if (!std::isfinite(v)) return value(std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
    item();
    out_ += format_float64(v);
    return *this;
  }
  JsonWriter& value_float32(float v) {
    if (!std::isfinite(v)) return value(static_cast<double>(v));
    item();
    out_ += format_float32(v);
    return *this;
  }
  JsonWriter& null() {
    item();
    out_ += "null";
    return *this;
  }
  std::string str() const { return out_ + "\n"; }

 private:
  struct Level {
    bool first = true;
    bool inline_items = false;
  };

  void open(char c, bool inline_items) {
    item();
    out_ += c;
    levels_.push_back(Level{true, inline_items});
  }
  void close(char c) {
    const Level l = levels_.back();
    levels_.pop_back();
    if (!l.first && !l.inline_items) newline();
    out_ += c;
  }
  // Before a key or a value: the comma and line break it needs (none after a key).
  void item() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (levels_.empty()) return;
    Level& l = levels_.back();
    if (!l.first) out_ += l.inline_items ? ", " : ",";
    if (!l.inline_items) newline();
    l.first = false;
  }
  void newline() {
    out_ += '\n';
    out_.append(2 * levels_.size(), ' ');
  }
  void quote(std::string_view s) {
    out_ += '"';
    for (char ch : s) {
      const auto c = static_cast<unsigned char>(ch);
      switch (c) {
        case '"':
          out_ += "\\\"";
          break;
        case '\\':
          out_ += "\\\\";
          break;
        case '\n':
          out_ += "\\n";
          break;
        case '\r':
          out_ += "\\r";
          break;
        case '\t':
          out_ += "\\t";
          break;
        default:
          if (c < 0x20) {
            static const char* hex = "0123456789abcdef";
            out_ += "\\u00";
            out_ += hex[c >> 4];
            out_ += hex[c & 15];
          } else {
            out_ += ch;  // UTF-8 passes through
          }
      }
    }
    out_ += '"';
  }

  std::string out_;
  std::vector<Level> levels_;
  bool after_key_ = false;
};

}  // namespace d2s::convert
