// The list ops of kernels_list.cpp: Python's list semantics (negative indices, the
// errors of an index out of range), and writes seen through every holder of the list.
#include <gtest/gtest.h>

#include "core/ops/tests/kernel_test_util.h"

namespace d2s {
namespace {

using test::call;
using test::call_error;

IValue ints(std::initializer_list<int64_t> v) {
  ValueList items;
  for (int64_t i : v) items.push_back(IValue(i));
  return IValue::list(std::move(items));
}

TEST(ListOps, AppendWritesTheListEveryHolderSees) {
  IValue xs = ints({1});
  IValue alias = xs;  // a second name: the same List
  IValue out = call("aten::append", {xs, IValue(int64_t{2})});
  EXPECT_EQ(alias.str(), "[1, 2]");
  EXPECT_EQ(out.str(), "[1, 2]");
}

TEST(ListOps, InsertPopAndSetItemFollowPython) {
  IValue xs = ints({1, 2, 3});
  call("aten::insert", {xs, IValue(int64_t{-1}), IValue(int64_t{9})});
  EXPECT_EQ(xs.str(), "[1, 2, 9, 3]");
  call("aten::insert", {xs, IValue(int64_t{100}), IValue(int64_t{7})});  // clamped
  EXPECT_EQ(xs.str(), "[1, 2, 9, 3, 7]");
  EXPECT_EQ(call("aten::pop", {xs}).to_int(), 7);
  EXPECT_EQ(call("aten::pop", {xs, IValue(int64_t{0})}).to_int(), 1);
  call("aten::_set_item", {xs, IValue(int64_t{-1}), IValue(int64_t{5})});
  EXPECT_EQ(xs.str(), "[2, 9, 5]");
  EXPECT_EQ(call("aten::__getitem__", {xs, IValue(int64_t{-2})}).to_int(), 9);
  EXPECT_EQ(call_error("aten::__getitem__", {xs, IValue(int64_t{3})}),
            "IndexError: list index out of range");
  EXPECT_EQ(call_error("aten::_set_item", {xs, IValue(int64_t{-4}), IValue(int64_t{0})}),
            "IndexError: list assignment index out of range");
  EXPECT_EQ(call_error("aten::pop", {ints({})}), "IndexError: pop from empty list");
}

TEST(ListOps, CopyConcatExtendAndSlice) {
  IValue xs = ints({1, 2, 3, 4});
  IValue copy = call("aten::list", {xs});
  call("aten::append", {xs, IValue(int64_t{5})});
  EXPECT_EQ(copy.str(), "[1, 2, 3, 4]");       // a new list: later writes do not reach it
  IValue same = call("aten::add_", {xs, xs});  // `xs += xs` doubles xs
  EXPECT_EQ(xs.str(), "[1, 2, 3, 4, 5, 1, 2, 3, 4, 5]");
  EXPECT_EQ(same.str(), xs.str());
  call("aten::extend", {copy, ints({8})});
  EXPECT_EQ(copy.str(), "[1, 2, 3, 4, 8]");
  EXPECT_EQ(call("aten::slice", {copy, IValue(int64_t{1}), IValue(), IValue(int64_t{2})}).str(),
            "[2, 4]");
  EXPECT_EQ(call("aten::slice", {copy, IValue(), IValue(), IValue(int64_t{-1})}).str(),
            "[8, 4, 3, 2, 1]");
  EXPECT_EQ(call("aten::slice", {copy, IValue(int64_t{-2}), IValue(int64_t{99})}).str(), "[4, 8]");
}

}  // namespace
}  // namespace d2s
