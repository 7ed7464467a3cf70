// Interned node kinds (core/ir/symbols.h): what a node resolves when it is made and
// when its overload is set, the prim list, and guard kinds.
#include <gtest/gtest.h>

#include "core/ir/ir.h"
#include "core/ir/symbols.h"
#include "core/ops/op_registry.h"

namespace d2s::ir {
namespace {

SourceRange at(int line) {
  static auto file = std::make_shared<const SourceFile>("m.py", "");
  return SourceRange(file, line, 1);
}

TEST(IrSymbolsTest, InterningGivesOneSymbolPerName) {
  const Symbol a = Symbol::intern("aten::some_op_no_one_registers");
  EXPECT_EQ(a, Symbol::intern("aten::some_op_no_one_registers"));
  EXPECT_NE(a, Symbol::intern("aten::some_other_op"));
  EXPECT_EQ(a.name(), "aten::some_op_no_one_registers");
  EXPECT_TRUE(a.is_aten());
  EXPECT_EQ(a.prim(), Prim::None);
  // The listed kinds have their compile-time ids.
  EXPECT_EQ(Symbol::intern("aten::size"), op::size);
  EXPECT_EQ(Symbol::intern("prim::dtype"), op::dtype);
  EXPECT_EQ(Symbol::intern("prim::If").prim(), Prim::If);
  EXPECT_EQ(Symbol::intern("prim::Uninitialized").prim(), Prim::Uninitialized);
  EXPECT_EQ(op::mm.name(), "aten::mm");
  EXPECT_EQ(Symbol::intern("foo").ns(), SymbolNamespace::Other);
}

TEST(IrSymbolsTest, EveryPrimIsListedWithItsCounts) {
  EXPECT_EQ(prim_info(Prim::If).name, "prim::If");
  EXPECT_EQ(prim_info(Prim::If).blocks, 2);
  EXPECT_EQ(prim_info(Prim::Loop).blocks, 1);
  EXPECT_EQ(prim_info(Prim::Loop).min_inputs, 2);
  EXPECT_EQ(prim_info(Prim::Loop).max_inputs, kVariadic);
  EXPECT_EQ(prim_info(Prim::Constant).outputs, 1);
  EXPECT_EQ(prim_info(Prim::Guard).effect, PrimEffect::MayRaise);
  EXPECT_EQ(prim_info(Prim::Print).effect, PrimEffect::SideEffect);
  EXPECT_EQ(prim_info(Prim::TupleConstruct).effect, PrimEffect::Pure);
  // Each entry's name interns to that entry.
  for (uint8_t i = 1; i <= static_cast<uint8_t>(Prim::Uninitialized); ++i) {
    const Prim p = static_cast<Prim>(i);
    EXPECT_EQ(Symbol::intern(prim_info(p).name).prim(), p) << prim_info(p).name;
  }
}

TEST(IrSymbolsTest, ANodeResolvesItsPrimOrItsOp) {
  Graph g;
  Value* x = g.add_input("x", Type::tensor());
  Node* print = g.insert("prim::Print", {x}, 0, at(1));
  EXPECT_EQ(print->prim(), Prim::Print);
  EXPECT_EQ(print->overloads(), nullptr);
  EXPECT_EQ(print->op(), nullptr);
  EXPECT_EQ(g.block()->param_node()->prim(), Prim::Param);
  EXPECT_EQ(g.block()->return_node()->prim(), Prim::Return);

  // One overload: the node's op without naming it.
  Node* mm = g.insert("aten::mm", {x, x}, 1, at(2));
  EXPECT_EQ(mm->prim(), Prim::None);
  EXPECT_EQ(mm->sym(), op::mm);
  ASSERT_NE(mm->op(), nullptr);
  EXPECT_EQ(mm->op()->schema.name, "aten::mm");

  // Several: chosen by the run unless named; naming one resolves it again.
  Node* max = g.insert("aten::max", {x}, 1, at(3));
  ASSERT_NE(max->overloads(), nullptr);
  EXPECT_GT(max->overloads()->size(), 1u);
  EXPECT_EQ(max->op(), nullptr);
  max->set_overload("dim");
  ASSERT_NE(max->op(), nullptr);
  EXPECT_EQ(max->op()->schema.overload, "dim");
  EXPECT_EQ(max->op(), OpRegistry::builtin().find("aten::max", "dim"));
  max->set_overload("no_such_overload");
  EXPECT_EQ(max->op(), nullptr);

  // A registry op spelled prim::, and a kind nobody knows.
  Node* dtype = g.insert("prim::dtype", {x}, 1, at(4));
  EXPECT_EQ(dtype->prim(), Prim::None);
  EXPECT_TRUE(dtype->sym().is_prim_namespace());
  EXPECT_NE(dtype->op(), nullptr);
  Node* nope = g.insert("aten::nope", {}, 0, at(5));
  EXPECT_EQ(nope->overloads(), nullptr);
  EXPECT_EQ(nope->op(), nullptr);
}

TEST(IrSymbolsTest, GuardKindsParseOnce) {
  GuardKind k = GuardKind::Value;
  EXPECT_TRUE(parse_guard_kind("shape", &k));
  EXPECT_EQ(k, GuardKind::Shape);
  EXPECT_TRUE(parse_guard_kind("rank", &k));
  EXPECT_EQ(k, GuardKind::Rank);
  EXPECT_TRUE(parse_guard_kind("", &k));
  EXPECT_EQ(k, GuardKind::Value);
  for (const char* what : {"bool", "int", "float", "item", "len", "length", "range", "index",
                           "scalar", "input", "?"}) {
    EXPECT_TRUE(parse_guard_kind(what, &k)) << what;
  }
  EXPECT_FALSE(parse_guard_kind("sahpe", &k));
  EXPECT_NE(guard_kind_names().find("shape"), std::string::npos);
}

}  // namespace
}  // namespace d2s::ir
