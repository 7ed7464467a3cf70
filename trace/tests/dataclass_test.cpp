// @dataclass config classes (trace/py_dataclass.cpp): the generated __init__ and its
// errors as Python raises them.
#include <gtest/gtest.h>

#include "trace/tests/test_util.h"

namespace d2s::testing {
namespace {

const char* kConfig =
    "from dataclasses import dataclass, field\n"
    "@dataclass\n"
    "class C:\n"
    "    a: int\n"
    "    b: float = 2.5\n"
    "    c: list = field(default_factory=list)\n";

TEST(Dataclass, FieldsInOrderWithDefaultsAndFactories) {
  std::string src = std::string(kConfig) +
                    "x = C(1)\ny = C(3, c=[7])\nx.c.append(1)\n"
                    "print(x.a, x.b, x.c, y.a, y.b, y.c, C(0).c)\n";
  EXPECT_EQ(run_print(src, {}, with_entry("<module>")), "1 2.5 [1] 3 2.5 [7] []\n");
}

TEST(Dataclass, MissingFieldIsATypeError) {
  Error e = run_error(std::string(kConfig) + "x = C()\n", {}, with_entry("<module>"));
  EXPECT_EQ(e.message(), "TypeError: __init__() missing 1 required positional argument: 'a'");
  EXPECT_EQ(e.range().line, 7);
}

TEST(Dataclass, UnknownKeywordAndTooManyArguments) {
  EXPECT_EQ(
      run_error(std::string(kConfig) + "x = C(1, d=2)\n", {}, with_entry("<module>")).message(),
      "TypeError: __init__() got an unexpected keyword argument 'd'");
  EXPECT_EQ(run_error(std::string(kConfig) + "x = C(1, 2.0, [], 4)\n", {}, with_entry("<module>"))
                .message(),
            "TypeError: __init__() takes 4 positional arguments but 5 were given");
}

TEST(Dataclass, FieldWithBothDefaultsIsAValueError) {
  Error e = run_error("from dataclasses import field\nf = field(default=1, default_factory=list)\n",
                      {}, with_entry("<module>"));
  EXPECT_EQ(e.message(), "ValueError: cannot specify both default and default_factory");
}

}  // namespace
}  // namespace d2s::testing
