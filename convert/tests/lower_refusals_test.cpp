// The parse route's errors for `**kwargs` (convert/lower_kwargs.cpp), the list methods
// that compare items and sorted() (convert/lower_list.cpp, lower_call.cpp), min/max of
// one list and list repetition (lower_expr.cpp): each is a d2s::Error with exit code 2
// at the construct, with Python's wording where Python raises too.
#include "convert/tests/lower_test_util.h"

namespace d2s::convert {
namespace {

struct Refusal {
  int exit_code = 0;
  int line = 0;
  std::string message;
};

// The error lowering `helpers` then `def f(x):` with `body` (the entry, the last def)
// gives; `g` returns the keywords it gathered.
Refusal refusal(const std::string& body, const std::string& helpers) {
  const std::string source =
      "import torch\n"
      "def g(x, **kw):\n"
      "    return kw\n" +
      helpers + "def f(x):\n" + body;
  try {
    lower_string(source);
  } catch (const Error& e) {
    return Refusal{e.exit_code(), e.range().line, e.message()};
  }
  return {};
}

void expect_refusal(const std::string& body, int line, const std::string& part,
                    const std::string& helpers = "") {
  const Refusal r = refusal(body, helpers);
  EXPECT_EQ(r.exit_code, 2) << helpers << body;
  EXPECT_EQ(r.line, line) << helpers << body << "\n" << r.message;
  EXPECT_NE(r.message.find(part), std::string::npos) << helpers << body << "\n" << r.message;
}

// `use` is line 5, in a helper h that the entry f calls with the keywords a and b.
void in_helper(const std::string& use, const std::string& part) {
  expect_refusal("    return h(x, a=1.0, b=x)\n", 5, part, "def h(x, **kw):\n    " + use + "\n");
}

TEST(LowerRefusals, KeywordsGatheredByKwargs) {
  // A key of another type than str is never found, as in Python.
  in_helper("return x * kw[0]", "KeyError: a key of type int in '**kw'");
  in_helper("return x * kw.get()", "TypeError: get expected 1 to 2 arguments, got 0");
  in_helper("return kw.get('a', default=1)", "TypeError: dict.get() takes no keyword arguments");
  in_helper("return x * len(kw.keys(1))", "TypeError: dict.keys() takes no arguments (1 given)");
  in_helper("return kw.frobnicate()",
            "AttributeError: 'dict' object has no attribute 'frobnicate'");
  in_helper("return kw.pop('a')", "changing the keyword arguments gathered by '**kw' is not");
  in_helper("del kw['a']", "changing the keyword arguments gathered by '**kw' is not");
  in_helper("return kw()", "TypeError: 'dict' object is not callable");
  in_helper("return kw['a':]", "TypeError: unhashable type: 'slice'");
  // Spread into a call that names one of its keys too: Python's TypeError.
  in_helper("return g(x, a=3, **kw)", "TypeError: got multiple values for keyword argument 'a'");
  // Used as a value (returned by g), it is a graph dict, whose values share one type.
  expect_refusal("    return g(x, a=1.0, b=x)\n", 3,
                 "a dict with values of type float cannot hold a value of type Tensor");
}

TEST(LowerRefusals, ListMethodsThatCompareItems) {
  expect_refusal("    xs = [x.size(0), 2]\n    xs.sort(1)\n    return xs\n", 6,
                 "TypeError: sort() takes no positional arguments");
  expect_refusal("    xs = [x.size(0), 2]\n    xs.sort(key=abs)\n    return xs\n", 6,
                 "sort(key=...) is not supported by the parse route");
  expect_refusal("    xs = [x.size(0), 2]\n    xs.sort(descending=True)\n    return xs\n", 6,
                 "TypeError: 'descending' is an invalid keyword argument for sort()");
  expect_refusal("    xs = [x, x]\n    return xs.index(x)\n", 6,
                 "list.index() of a list of tensors is not supported by the parse route");
  expect_refusal("    xs = [x.size(0), 2]\n    return sorted(xs, xs)\n", 6,
                 "TypeError: sorted expected 1 argument, got 2");
  expect_refusal("    xs = [x, x]\n    return max(xs)\n", 6, "the builtin max() of a List[");
  expect_refusal("    xs = [x.size(0)]\n    return xs * 2.5\n", 6,
                 "TypeError: can't multiply sequence by non-int of type 'float'");
}

TEST(LowerRefusals, DevicesOtherThanTheCpu) {
  expect_refusal("    return x.to(\"cuda\")\n", 5,
                 "Tensor.to() of a device other than the CPU is not supported by the parse route");
  expect_refusal("    return x.to(device=\"cuda:0\", dtype=torch.float32)\n", 5,
                 "Tensor.to() of a device other than the CPU is not supported by the parse route");
  expect_refusal("    return x * torch.device(3).count\n", 5,
                 "TypeError: device() received an invalid combination of arguments - got (int)");
}

}  // namespace
}  // namespace d2s::convert
