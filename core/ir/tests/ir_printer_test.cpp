// The TorchScript-style text of graphs: golden text for an If, a Loop, attributes
// of every kind, name uniquing.
#include <gtest/gtest.h>

#include "core/ir/printer.h"
#include "core/ir/tests/ir_test_util.h"

namespace d2s::ir {
namespace {

TEST(IrPrinterTest, PrintsIfWithBlocksAndLocations) {
  auto g = testing::make_foo1();
  EXPECT_EQ(print_graph(*g),
            "graph(%x : Tensor[1, 10],\n"
            "      %y : Tensor[1, 10]):\n"
            "  %2 : Bool[] = aten::lt(%x, %y)  # foo1.py:3:6\n"
            "  %s : Tensor[1, 10] = prim::If(%2)  # foo1.py:3:3\n"
            "    block0():\n"
            "      %4 : int = prim::Constant[value=1]()  # foo1.py:4:9\n"
            "      %s.1 : Tensor[1, 10] = aten::add(%x, %y, %4)  # foo1.py:4:9\n"
            "      -> (%s.1)\n"
            "    block1():\n"
            "      -> (%y)\n"
            "   = prim::Print(%s)  # foo1.py:7:3\n"
            "  return (%s)\n");
}

TEST(IrPrinterTest, PrintsLoopWithCarriedValues) {
  auto g = testing::make_loop();
  EXPECT_EQ(print_graph(*g),
            "graph(%n : int,\n"
            "      %h : Tensor[1, 4]):\n"
            "  %2 : bool = prim::Constant[value=True]()  # rnn.py:2:3\n"
            "  %h.1 : Tensor[1, 4] = prim::Loop(%n, %2, %h)  # rnn.py:2:3\n"
            "    block0(%i : int, %h.2 : Tensor[1, 4]):\n"
            "      %6 : Tensor[1, 4] = aten::tanh(%h.2)  # rnn.py:3:9\n"
            "      %h.3 : Tensor[1, 4] = aten::add(%6, %i)  # rnn.py:3:9\n"
            "      -> (%2, %h.3)\n"
            "  return (%h.1)\n");
}

TEST(IrPrinterTest, PrintsEveryAttributeKind) {
  Graph g;
  auto file = std::make_shared<const SourceFile>("/tmp/dir/m.py", "");
  SourceRange r(file, 5, 7);
  Value* x = g.add_input("x", Type::tensor());
  g.insert_constant(IValue(), r);
  g.insert_constant(IValue(0.5), r);
  g.insert_constant(IValue(2.0), r);
  g.insert_constant(IValue("a \"q\"\n"), r);
  g.insert_constant(IValue::int_list({1, 2}), r);
  g.insert_constant(IValue::tuple({IValue(1), IValue(false)}), r);
  g.insert_constant(IValue::tuple({IValue(1)}), r);
  g.insert_constant(IValue(Tensor::scalar(1.5)), r);
  g.insert_constant(IValue(Tensor::zeros({2, 3})), r);
  Node* guard = g.insert(kind::Guard, {x}, 0, r);
  guard->set_attr("seen", IValue(true));
  guard->set_attr("expr", IValue("x.mean() > 0.5"));
  guard->set_attr("what", IValue("bool"));
  g.insert(kind::Print, {}, 0, SourceRange());
  EXPECT_EQ(print_graph(g),
            "graph(%x : AnyTensor):\n"
            "  %1 : NoneType = prim::Constant()  # m.py:5:7\n"
            "  %2 : float = prim::Constant[value=0.5]()  # m.py:5:7\n"
            "  %3 : float = prim::Constant[value=2.0]()  # m.py:5:7\n"
            "  %4 : str = prim::Constant[value=\"a \\\"q\\\"\\n\"]()  # m.py:5:7\n"
            "  %5 : int[] = prim::Constant[value=[1, 2]]()  # m.py:5:7\n"
            "  %6 : (int, bool) = prim::Constant[value=(1, False)]()  # m.py:5:7\n"
            "  %7 : (int) = prim::Constant[value=(1,)]()  # m.py:5:7\n"
            "  %8 : Tensor[] = prim::Constant[value={1.5}]()  # m.py:5:7\n"
            "  %9 : Tensor[2, 3] = prim::Constant[value=<Tensor[2, 3]>]()  # m.py:5:7\n"
            "   = prim::Guard[seen=True, expr=\"x.mean() > 0.5\", what=\"bool\"](%x)  # m.py:5:7\n"
            "   = prim::Print()\n"
            "  return ()\n");
}

TEST(IrPrinterTest, MakesNamesUnique) {
  Graph g;
  auto file = std::make_shared<const SourceFile>("m.py", "");
  SourceRange r(file, 1, 1);
  Value* a = g.add_input("a", Type::of_int());
  Value* b = g.add_input("a", Type::of_int());    // same name
  Value* c = g.add_input("a.1", Type::of_int());  // looks like a suffixed name
  Value* d = g.add_input("3", Type::of_int());    // a number another value would take
  Node* n = g.insert("aten::add", {a, b}, 1, r);
  Node* m = g.insert("aten::add", {c, d}, 1, r);
  g.register_output(n->output());
  g.register_output(m->output());
  EXPECT_EQ(print_graph(g),
            "graph(%a : int,\n"
            "      %a.1 : int,\n"
            "      %a.2 : int,\n"
            "      %3 : int):\n"
            "  %4 : Any = aten::add(%a, %a.1)  # m.py:1:1\n"
            "  %5 : Any = aten::add(%a.2, %3)  # m.py:1:1\n"
            "  return (%4, %5)\n");
}

TEST(IrPrinterTest, PrintNodeIsOneLine) {
  auto g = testing::make_foo1();
  const Node* lt = *g->block()->nodes().begin();
  EXPECT_EQ(print_node(*lt),
            "%" + std::to_string(lt->output()->unique()) + " : Bool[] = aten::lt(%x, %y)");
  const Node* print = g->block()->return_node()->prev();
  EXPECT_EQ(print_node(*print), "prim::Print(%s)");
}

TEST(IrPrinterTest, PrintsLongGraphs) {
  Graph g;
  auto file = std::make_shared<const SourceFile>("m.py", "");
  Value* v = g.add_input("x", Type::tensor());
  for (int i = 0; i < 100000; ++i)
    v = g.insert("aten::neg", {v}, 1, SourceRange(file, 1, 1))->output();
  g.register_output(v);
  std::string text = print_graph(g);
  EXPECT_NE(text.find("return (%100000)"), std::string::npos);
}

}  // namespace
}  // namespace d2s::ir
