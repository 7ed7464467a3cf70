// The numpy calls model code makes on Python numbers at construction time: the
// constants (np.pi, np.e, np.inf, np.nan), np.sqrt / np.log / np.exp / np.abs /
// np.floor / np.ceil of a number, np.prod / np.sum of a list or tuple of numbers (a
// shape), and the scalar types np.float32 / np.float64 / np.int64 as casts
// (np.float32(x) rounds to float32, as numpy does). numpy arrays (np.eye, np.array, ...)
// are py_ndarray.cpp's.
#include <cmath>
#include <map>

#include "trace/interp.h"
#include "trace/py_ndarray.h"

namespace d2s::interp {

namespace {

const std::map<std::string, double (*)(double)>& numpy_unary() {
  static const std::map<std::string, double (*)(double)> table = {
      {"numpy.sqrt", [](double x) { return std::sqrt(x); }},
      {"numpy.log", [](double x) { return std::log(x); }},
      {"numpy.exp", [](double x) { return std::exp(x); }},
      {"numpy.abs", [](double x) { return std::fabs(x); }},
      {"numpy.floor", [](double x) { return std::floor(x); }},
      {"numpy.ceil", [](double x) { return std::ceil(x); }},
  };
  return table;
}

}  // namespace

std::optional<IValue> Interpreter::numpy_value(const std::string& q) {
  if (q == "numpy.pi") return IValue(M_PI);
  if (q == "numpy.e") return IValue(M_E);
  if (q == "numpy.inf") return IValue(INFINITY);
  if (q == "numpy.nan") return IValue(NAN);
  if (numpy_unary().count(q) || is_numpy_array_name(q) || q == "numpy.prod" || q == "numpy.sum" ||
      q == "numpy.float32" || q == "numpy.float64" || q == "numpy.int64") {
    return IValue(std::static_pointer_cast<Object>(std::make_shared<BuiltinValue>(q)));
  }
  return std::nullopt;
}

IValue Interpreter::call_numpy_name(const std::string& q, ValueList args, Kwargs kwargs,
                                    const SourceRange& range) {
  if (is_numpy_array_name(q)) {
    return call_numpy_array_name(*this, q, std::move(args), std::move(kwargs), range);
  }
  const std::string name = "np." + q.substr(6);
  auto number = [&](const IValue& v) {
    std::optional<IValue> n = to_number(v, PyConversion::Scalar, range);
    if (!n) {
      fail("d2s implements " + name + " of a Python number only, not of a " + py_type_name(v),
           range,
           "d2s builds numpy arrays and turns them into tensors, but numpy's functions of an array "
           "are "
           "not implemented; write the computation with torch");
    }
    return *n;
  };
  if (auto it = numpy_unary().find(q); it != numpy_unary().end()) {
    ValueList a = bind_args(name, {{"x", std::nullopt}}, std::move(args), std::move(kwargs), range);
    return IValue(it->second(number(a[0]).to_double()));
  }
  if (q == "numpy.prod" || q == "numpy.sum") {
    ValueList a = bind_args(name, {{"a", std::nullopt}}, std::move(args), std::move(kwargs), range);
    const ValueList* items = seq_items(a[0]);
    if (!items) return number(a[0]);
    // numpy's result type: int64 when every item is an int (or bool), else float64.
    bool all_int = true;
    double d = q == "numpy.prod" ? 1.0 : 0.0;
    int64_t i = q == "numpy.prod" ? 1 : 0;
    for (const IValue& item : *items) {
      IValue n = number(item);
      all_int = all_int && !n.is_double();
      d = q == "numpy.prod" ? d * n.to_double() : d + n.to_double();
      if (!n.is_double()) i = q == "numpy.prod" ? i * n.to_int() : i + n.to_int();
    }
    return all_int ? IValue(i) : IValue(d);
  }
  // np.float32(x), np.float64(x), np.int64(x): numpy scalars, used as Python numbers.
  ValueList a =
      bind_args(name, {{"x", IValue(int64_t{0})}}, std::move(args), std::move(kwargs), range);
  IValue n = number(a[0]);
  if (q == "numpy.int64") {
    if (n.is_double() && !std::isfinite(n.to_double())) {
      fail("OverflowError: cannot convert float infinity or NaN to integer", range);
    }
    return IValue(n.is_double() ? static_cast<int64_t>(n.to_double()) : n.to_int());
  }
  const double d = n.to_double();
  return IValue(q == "numpy.float32" ? static_cast<double>(static_cast<float>(d)) : d);
}

}  // namespace d2s::interp
