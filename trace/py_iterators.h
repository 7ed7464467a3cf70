// Python iterators as model code uses them: iter(x) and next(it[, default]) (e.g.
// `next(self.parameters()).device`), the generators nn.Module.parameters() and
// named_parameters() return, and itertools' endless count() and cycle() (and repeat()
// without a count), which a `for` loop with a `break`, zip() with a finite iterable and
// islice() stop. A finite iterator holds its items; iterating it consumes them, as a
// Python iterator is consumed. Internal to trace/.
#pragma once

#include <optional>
#include <string>

#include "trace/native_value.h"

namespace d2s::interp {

class IteratorValue : public NativeValue {
 public:
  enum class Kind { Items, Count, Cycle, Repeat };
  // `type` is Python's type name ("list_iterator", "generator", "itertools.count").
  IteratorValue(std::string type, Kind kind, ValueList items)
      : type(std::move(type)), kind(kind), items(std::move(items)) {}
  std::string type_name() const override { return type; }
  bool has_method(const std::string& name) const override {
    (void)name;
    return false;
  }
  IValue call_method(Interpreter& in, const std::string& name, ValueList args, Kwargs kwargs,
                     const SourceRange& range) override;
  std::string repr() const override { return "<" + type + " object>"; }

  bool endless() const { return kind != Kind::Items && !(kind == Kind::Cycle && items.empty()); }
  // The next item, or nullopt when the iterator is exhausted.
  std::optional<IValue> next(Interpreter& in, const SourceRange& range);
  // The items left, consuming them; an error naming the iterator when it is endless.
  ValueList drain(Interpreter& in, const SourceRange& range);

  std::string type;
  Kind kind;
  ValueList items;  // Items: the items; Cycle: the cycle; Repeat: the one object
  size_t pos = 0;   // Items / Cycle: the next item's index
  IValue counter;   // Count: the next value
  IValue step;      // Count: the increment
};

IValue make_iterator(std::string type, ValueList items);
IteratorValue* as_iterator(const IValue& v);

// The builtins `iter` and `next`, and itertools.count / cycle / repeat(x) with no
// count; nullopt for another name.
std::optional<IValue> call_iterator_name(Interpreter& in, const std::string& qualname,
                                         ValueList& args, Kwargs& kwargs, const SourceRange& range);

}  // namespace d2s::interp
