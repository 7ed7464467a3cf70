// The graph's runtime dict (GraphDict, core/tensor/ivalue_dict.h) and its ops
// (core/ops/kernels_dict.cpp): insertion order as Python keeps it, writes seen through
// every holder, Python's KeyError, the Dict type's spelling, and the cycle collector.
#include <gtest/gtest.h>

#include "core/ir/ir.h"
#include "core/ops/tests/kernel_test_util.h"
#include "core/tensor/gc.h"
#include "core/tensor/ivalue_dict.h"

namespace d2s {
namespace {

using test::call;
using test::call_error;

IValue str(const char* s) {
  return IValue(std::string(s));
}
IValue num(int64_t i) {
  return IValue(i);
}

TEST(DictOps, ConstructKeepsInsertionOrderAndTheFirstPlaceOfAKey) {
  IValue d = call("prim::DictConstruct", {str("b"), num(1), str("a"), num(2), str("b"), num(3)});
  EXPECT_EQ(d.str(), "{'b': 3, 'a': 2}");  // as Python's {"b": 1, "a": 2, "b": 3}
  EXPECT_EQ(d.type_name(), "dict");
  EXPECT_EQ(call("aten::len", {d}).to_int(), 2);
  EXPECT_EQ(call("aten::keys", {d}).str(), "['b', 'a']");
  EXPECT_EQ(call("aten::values", {d}).str(), "[3, 2]");
  EXPECT_EQ(call("aten::items", {d}).str(), "[('b', 3), ('a', 2)]");
  EXPECT_EQ(call("prim::DictConstruct", {}).str(), "{}");
}

TEST(DictOps, WritesAreSeenByEveryHolder) {
  IValue d = call("prim::DictConstruct", {str("a"), num(1)});
  IValue alias = d;
  IValue list = IValue::list({d});
  call("aten::_set_item", {d, str("c"), num(5)});
  call("aten::_set_item", {alias, str("a"), num(7)});  // an existing key keeps its place
  EXPECT_EQ(list.list_items()[0].str(), "{'a': 7, 'c': 5}");
  EXPECT_EQ(call("aten::__getitem__", {d, str("c")}).to_int(), 5);
  EXPECT_TRUE(call("aten::__contains__", {d, str("a")}).to_bool());
  EXPECT_FALSE(call("aten::__contains__", {d, str("z")}).to_bool());
}

TEST(DictOps, GetPopDeleteUpdateCopyAndClearFollowPython) {
  IValue d = call("prim::DictConstruct", {str("a"), num(1), str("b"), num(2), str("c"), num(3)});
  EXPECT_EQ(call("aten::get", {d, str("b")}).to_int(), 2);
  EXPECT_TRUE(call("aten::get", {d, str("z")}).is_none());
  EXPECT_EQ(call("aten::get", {d, str("z"), num(9)}).to_int(), 9);
  EXPECT_EQ(call("aten::pop", {d, str("a")}).to_int(), 1);
  EXPECT_EQ(call("aten::pop", {d, str("a"), num(-1)}).to_int(), -1);
  EXPECT_EQ(d.str(), "{'b': 2, 'c': 3}");
  EXPECT_EQ(call("aten::__getitem__", {d, str("c")}).to_int(), 3);  // positions moved up
  IValue copy = call("aten::copy", {d});
  call("aten::Delete", {d, str("b")});
  EXPECT_EQ(d.str(), "{'c': 3}");
  EXPECT_EQ(copy.str(), "{'b': 2, 'c': 3}");  // a new dict
  call("aten::update", {d, copy});
  EXPECT_EQ(d.str(), "{'c': 3, 'b': 2}");
  call("aten::update", {d, d});  // with itself: unchanged
  EXPECT_EQ(d.str(), "{'c': 3, 'b': 2}");
  call("aten::clear", {d});
  EXPECT_EQ(d.str(), "{}");
  EXPECT_EQ(call("aten::len", {d}).to_int(), 0);
}

TEST(DictOps, IntKeysAndBoolKeysAreOneKeyAsInPython) {
  IValue d = call("prim::DictConstruct", {num(1), str("one"), num(0), str("zero")});
  call("aten::_set_item", {d, IValue(true), str("true")});  // True == 1
  EXPECT_EQ(d.str(), "{1: 'true', 0: 'zero'}");
  EXPECT_EQ(call("aten::__getitem__", {d, num(0)}).to_string(), "zero");
}

TEST(DictOps, AMissingKeyIsPythonsKeyError) {
  IValue d = call("prim::DictConstruct", {str("a"), num(1)});
  EXPECT_EQ(call_error("aten::__getitem__", {d, str("zz")}), "KeyError: 'zz'");
  EXPECT_EQ(call_error("aten::pop", {d, str("zz")}), "KeyError: 'zz'");
  EXPECT_EQ(call_error("aten::Delete", {d, str("zz")}), "KeyError: 'zz'");
  IValue e = call("prim::DictConstruct", {num(3), num(1)});
  EXPECT_EQ(call_error("aten::__getitem__", {e, num(4)}), "KeyError: 4");
}

TEST(DictType, PrintsAndParsesAsTorchScriptSpellsIt) {
  const ir::Type t = ir::Type::dict(ir::Type::of_str(), ir::Type::tensor(DType::Float32));
  EXPECT_EQ(t.str(), "Dict(str, Tensor)");
  const ir::Type nested =
      ir::Type::dict(ir::Type::of_int(), ir::Type::list(ir::Type::tuple({t, ir::Type::of_int()})));
  EXPECT_EQ(nested.str(), "Dict(int, (Dict(str, Tensor), int)[])");
  for (const ir::Type& x : {t, nested}) {
    auto back = ir::Type::parse(x.str());
    ASSERT_TRUE(back) << x.str();
    EXPECT_EQ(*back, x);
  }
  EXPECT_FALSE(ir::Type::parse("Dict(str)"));
  EXPECT_FALSE(ir::Type::parse("Dict(str, Tensor"));
  IValue d = call("prim::DictConstruct", {str("a"), num(1), str("b"), num(2)});
  EXPECT_EQ(ir::type_of(d).str(), "Dict(str, int)");
}

TEST(DictGc, ADictInACycleIsFreedAndOneHeldFromOutsideIsKept) {
  collect_cycles();
  const size_t before = gc_live_nodes();
  {
    IValue d = make_graph_dict();
    IValue list = IValue::list({d});
    as_graph_dict(d)->set(str("self"), list);  // d["self"] = [d]
  }
  EXPECT_EQ(gc_live_nodes(), before + 2);
  EXPECT_EQ(collect_cycles(), 2u);
  EXPECT_EQ(gc_live_nodes(), before);

  IValue held = make_graph_dict();
  as_graph_dict(held)->set(str("me"), held);
  as_graph_dict(held)->set(str("n"), num(4));
  EXPECT_EQ(collect_cycles(), 0u);
  EXPECT_EQ(held.str(), "{'me': {...}, 'n': 4}");
  as_graph_dict(held)->clear();  // break it by hand
}

}  // namespace
}  // namespace d2s
