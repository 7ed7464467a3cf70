// printf-style `fmt % args` (py_percent_format.cpp): Python's output and errors.
#include "trace/tests/test_util.h"

namespace d2s::testing {
namespace {

std::string run(const std::string& body) {
  return run_print("import torch\n" + body, {}, with_entry("<module>"));
}
Error error(const std::string& body) {
  return run_error("import torch\n" + body, {}, with_entry("<module>"));
}

TEST(PercentFormat, ConversionsFlagsWidthAndPrecisionAsPython) {
  EXPECT_EQ(run("print(repr('%5s|%-5s|' % ('ab', 'ab')))\n"), "'   ab|ab   |'\n");
  EXPECT_EQ(run("print('%05.1f|%+d|% d|%#x|%e|%g|%c|%r' % (3.14159, 5, 5, 255, 12345.678, "
                "0.0001, 65, 'x'))\n"),
            "003.1|+5| 5|0xff|1.234568e+04|0.0001|A|'x'\n");
  EXPECT_EQ(run("print('%(a)s-%(b)03d' % {'a': 1, 'b': 2}, '%s' % {}, '%.2s|%*d' % ('abc', 4, 7), "
                "'layer%d' % 2.7, '%s %s' % (True, None), '100%%' % ())\n"),
            "1-002 {} ab|   7 layer2 True None 100%\n");
  EXPECT_EQ(run("loss = torch.tensor(0.25)\nprint('loss %.3f, %s' % (loss, [1, 2]))\n"),
            "loss 0.250, [1, 2]\n");
}

TEST(PercentFormat, PythonsErrors) {
  EXPECT_EQ(error("s = '%d %d' % (1,)\n").message(),
            "TypeError: not enough arguments for format string");
  EXPECT_EQ(error("s = '%d' % (1, 2)\n").message(),
            "TypeError: not all arguments converted during string formatting");
  EXPECT_EQ(error("s = '%q' % 1\n").message(),
            "ValueError: unsupported format character 'q' (0x71) at index 1");
  EXPECT_EQ(error("s = '%' % 1\n").message(), "ValueError: incomplete format");
  EXPECT_EQ(error("s = '%d' % 'a'\n").message(),
            "TypeError: %d format: a real number is required, not str");
  EXPECT_EQ(error("s = '%f' % 'a'\n").message(), "TypeError: must be real number, not str");
  EXPECT_EQ(error("s = '%x' % 1.5\n").message(),
            "TypeError: %x format: an integer is required, not float");
}

}  // namespace
}  // namespace d2s::testing
