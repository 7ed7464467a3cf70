// Python iterators (py_iterators.h): iter(), next(), the generators of nn.Module's
// parameter walks, and itertools' endless iterators.
#include "trace/py_iterators.h"

#include "trace/py_dict.h"

namespace d2s::interp {

namespace {

IValue obj(std::shared_ptr<Object> o) {
  return IValue(std::move(o));
}

// Python's name of iter(x)'s type for the iterables d2s has.
std::string iterator_type(const IValue& v) {
  if (v.is_list()) return "list_iterator";
  if (v.is_tuple() || as_obj<SizeValue>(v) || as_obj<NamedTupleValue>(v)) return "tuple_iterator";
  if (as_obj<RangeValue>(v)) return "range_iterator";
  if (v.is_string()) return "str_iterator";
  if (as_dict(v)) return as_dict(v)->is_set ? "set_iterator" : "dict_keyiterator";
  return "iterator";
}

}  // namespace

IValue IteratorValue::call_method(Interpreter& in, const std::string& name, ValueList args,
                                  Kwargs kwargs, const SourceRange& range) {
  (void)args;
  (void)kwargs;
  in.fail("AttributeError: '" + type + "' object has no attribute '" + name + "'", range);
}

std::optional<IValue> IteratorValue::next(Interpreter& in, const SourceRange& range) {
  switch (kind) {
    case Kind::Items:
      if (pos >= items.size()) return std::nullopt;
      return items[pos++];
    case Kind::Cycle: {
      if (items.empty()) return std::nullopt;
      IValue v = items[pos];
      pos = (pos + 1) % items.size();
      return v;
    }
    case Kind::Repeat:
      return items[0];
    case Kind::Count: {
      IValue v = counter;
      counter = in.binary(ast::BinOpKind::Add, counter, step, range);
      return v;
    }
  }
  return std::nullopt;
}

ValueList IteratorValue::drain(Interpreter& in, const SourceRange& range) {
  if (endless()) {
    in.fail(type + " is endless, and d2s evaluates this use of it whole", range,
            "stop it where it is used: a for loop with a break, zip() with a finite iterable, or "
            "itertools.islice(it, n)");
  }
  ValueList out(items.begin() + static_cast<std::ptrdiff_t>(pos), items.end());
  pos = items.size();
  return out;
}

IValue make_iterator(std::string type, ValueList items) {
  return obj(std::make_shared<IteratorValue>(std::move(type), IteratorValue::Kind::Items,
                                             std::move(items)));
}

IteratorValue* as_iterator(const IValue& v) {
  return as_obj<IteratorValue>(v);
}

std::optional<IValue> call_iterator_name(Interpreter& in, const std::string& q, ValueList& args,
                                         Kwargs& kwargs, const SourceRange& range) {
  if (q == "iter") {
    ValueList a =
        bind_args("iter", {{"object", std::nullopt}}, std::move(args), std::move(kwargs), range);
    if (as_iterator(a[0])) return a[0];  // an iterator's iter() is itself
    return make_iterator(iterator_type(a[0]), in.iterate(a[0], range));
  }
  if (q == "next") {
    if (!kwargs.empty()) in.fail("TypeError: next() takes no keyword arguments", range);
    if (args.empty() || args.size() > 2) {
      in.fail("TypeError: next expected 1 or 2 arguments, got " + std::to_string(args.size()),
              range);
    }
    IteratorValue* it = as_iterator(args[0]);
    if (!it) {
      in.fail("TypeError: '" + py_type_name(args[0]) + "' object is not an iterator", range,
              "iter(x) makes an iterator of a list or tuple: next(iter(x))");
    }
    if (std::optional<IValue> v = it->next(in, range)) return *v;
    if (args.size() == 2) return args[1];
    throw RaisedError("StopIteration", range,
                      obj(std::make_shared<ExceptionValue>("StopIteration", ValueList{})));
  }
  if (q == "itertools.count") {
    ValueList a = bind_args("count", {{"start", IValue(int64_t{0})}, {"step", IValue(int64_t{1})}},
                            std::move(args), std::move(kwargs), range);
    for (const IValue& v : a) {
      if (!in.to_number(v, PyConversion::Scalar, range)) {
        in.fail("TypeError: a number is required", range);
      }
    }
    auto it =
        std::make_shared<IteratorValue>("itertools.count", IteratorValue::Kind::Count, ValueList{});
    it->counter = a[0];
    it->step = a[1];
    return obj(it);
  }
  if (q == "itertools.cycle") {
    if (!kwargs.empty()) in.fail("TypeError: cycle() takes no keyword arguments", range);
    if (args.size() != 1) {
      in.fail("TypeError: cycle expected 1 argument, got " + std::to_string(args.size()), range);
    }
    // cycle() saves the items of its iterable as it first goes through them; the iterable
    // is finite here, so they are saved at once.
    return obj(std::make_shared<IteratorValue>("itertools.cycle", IteratorValue::Kind::Cycle,
                                               in.iterate(args[0], range)));
  }
  return std::nullopt;
}

}  // namespace d2s::interp
