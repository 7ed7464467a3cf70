// The interface the tracer builds on: every op reported with its arguments, every
// tensor-derived Python value reported with its source text, branches and trip
// counts, prints, calls, and symbolic values flowing through Python code.
#include <sstream>

#include "trace/tests/test_util.h"

namespace d2s::testing {
namespace {

// A stand-in for the tracer's symbolic int: the size plus a tag.
class SymInt : public SymbolicValue {
 public:
  explicit SymInt(IValue v) : value(std::move(v)) {}
  std::string type_name() const override { return "SymInt"; }
  IValue concrete() const override { return value; }
  IValue value;
};

struct Recorder : InterpreterHooks {
  std::vector<std::string> ops;
  std::vector<std::string> conversions;
  std::vector<std::string> events;
  std::vector<ValueList> given;
  bool symbolic_sizes = false;

  IValue after_op(const OpDef& op, const ValueList& args, const ValueList& g, IValue result,
                  const SourceRange& range) override {
    (void)args;
    ops.push_back(op.schema.qualified_name() + "@" + std::to_string(range.line));
    given.push_back(g);
    auto sym = [](IValue v) {
      return IValue(std::static_pointer_cast<Object>(std::make_shared<SymInt>(v)));
    };
    if (symbolic_sizes && op.schema.qualified_name() == "aten::size.int") return sym(result);
    if (symbolic_sizes && op.schema.qualified_name() == "aten::size") {
      ValueList sizes;
      for (const IValue& s : result.items()) sizes.push_back(sym(s));
      return IValue::list(sizes);
    }
    return result;
  }
  IValue to_python(PyConversion kind, const IValue& value, IValue python_value,
                   const SourceRange& range, const std::string& text) override {
    conversions.push_back(std::string(py_conversion_name(kind)) + ":" + text + "=" +
                          python_value.repr() + (value.is_object() ? "(sym)" : "") + "@" +
                          std::to_string(range.line));
    return python_value;
  }
  void on_print(const ValueList& args, const std::string& text, const SourceRange& range) override {
    events.push_back("print " + std::to_string(args.size()) + " " + text + "@" +
                     std::to_string(range.line));
  }
  void on_if(const ast::If& stmt, bool taken) override {
    events.push_back("if@" + std::to_string(stmt.range.line) + (taken ? " then" : " else"));
  }
  void on_loop(const ast::Stmt& stmt, int64_t trips) override {
    events.push_back("loop@" + std::to_string(stmt.range.line) + " x" + std::to_string(trips));
  }
  void on_call_enter(const ast::FunctionDef&, const std::string& name,
                     const SourceRange&) override {
    events.push_back("enter " + name);
  }
  void on_call_exit(const ast::FunctionDef& fn) override { events.push_back("exit " + fn.name); }
};

IValue run_hooked(const std::string& src, Recorder& rec, const NamedInputs& inputs,
                  std::string* printed = nullptr) {
  Program p = Program::from_string(src);
  std::ostringstream out;
  RunOptions opts;
  opts.out = &out;
  p.prepare(opts);
  opts.hooks = &rec;
  IValue v = p.call_entry(inputs, opts);
  if (printed) *printed = out.str();
  return v;
}

TEST(Hooks, OpsConversionsAndBranches) {
  const char* src =
      "import torch\n"
      "w = torch.ones(2)\n"  // top level: prepare(), not reported
      "def foo1(x, y):\n"
      "    if x.sum() < y.sum():\n"
      "        s = x + y\n"
      "    elif x.sum() > 100:\n"
      "        s = x\n"
      "    else:\n"
      "        s = torch.square(y)\n"
      "    return s * w\n";
  Recorder rec;
  run_hooked(src, rec, {{"x", floats({2}, {3, 4})}, {"y", floats({2}, {1, 2})}});
  EXPECT_EQ(rec.ops, (std::vector<std::string>{"aten::sum@4", "aten::sum@4", "aten::lt.Tensor@4",
                                               "aten::sum@6", "aten::gt.Tensor@6", "aten::square@9",
                                               "aten::mul.Tensor@10"}));
  EXPECT_EQ(rec.conversions, (std::vector<std::string>{"bool:x.sum() < y.sum()=False@4",
                                                       "bool:x.sum() > 100=False@6"}));
  EXPECT_EQ(rec.events,
            (std::vector<std::string>{"enter foo1", "if@4 else", "if@6 else", "exit foo1"}));
}

TEST(Hooks, ItemIntFloatLenAndLoopTrips) {
  const char* src =
      "import torch\n"
      "def f(x):\n"
      "    scale = x.abs().max().item()\n"
      "    k = int(x.argmax())\n"
      "    acc = 0.0\n"
      "    for i in range(x.shape[0]):\n"
      "        acc = acc + float(x[i])\n"
      "    for row in x:\n"
      "        pass\n"
      "    n = 0\n"
      "    while n < len(x):\n"
      "        n += 1\n"
      "    print('done', n)\n"
      "    return scale, k, acc\n";
  Recorder rec;
  std::string printed;
  IValue v = run_hooked(src, rec, {{"x", floats({3}, {1, -5, 2})}}, &printed);
  EXPECT_EQ(v.repr(), "(5.0, 2, -2.0)");
  EXPECT_EQ(printed, "done 3\n");
  std::vector<std::string> expected = {
      // x.shape[0] is a plain int here (no symbolic sizes): range() reports nothing.
      "item:x.abs().max().item()=5.0@3",
      "int:int(x.argmax())=2@4",
      "float:float(x[i])=1.0@7",
      "float:float(x[i])=-5.0@7",
      "float:float(x[i])=2.0@7",
      "len:x=3@8",
      "len:len(x)=3@11",
      "len:len(x)=3@11",
      "len:len(x)=3@11",
      "len:len(x)=3@11"};
  EXPECT_EQ(rec.conversions, expected);
  EXPECT_EQ(rec.events, (std::vector<std::string>{"enter f", "loop@6 x3", "loop@8 x3", "loop@11 x3",
                                                  "print 2 done 3\n@13", "exit f"}));
}

TEST(Hooks, SymbolicSizesFlowIntoOpsAndAreConcretizedForPython) {
  const char* src =
      "import torch\n"
      "def f(x):\n"
      "    h = x.view(x.size(0), -1)\n"
      "    n = x.size(0) * 2\n"
      "    lst = [10, 20, 30, 40]\n"
      "    for i in range(x.size(0)):\n"
      "        pass\n"
      "    print(n, x.shape)\n"
      "    for i in range(x.shape[1]):\n"
      "        pass\n"
      "    return h, lst[x.size(0)], n\n";
  Recorder rec;
  rec.symbolic_sizes = true;
  std::string printed;
  IValue v = run_hooked(src, rec, {{"x", floats({2, 3}, {1, 2, 3, 4, 5, 6})}}, &printed);
  EXPECT_EQ(printed, "4 torch.Size([2, 3])\n");
  // aten::view got [SymInt, -1] in `given` and [2, -1] as its argument.
  ASSERT_GE(rec.ops.size(), 2u);
  EXPECT_EQ(rec.ops[1], "aten::view@3");
  const ValueList& view_given = rec.given[1];
  ASSERT_TRUE(view_given[1].is_list());
  EXPECT_NE(dynamic_cast<SymInt*>(view_given[1].list_items()[0].to_object().get()), nullptr);
  EXPECT_EQ(view_given[1].list_items()[1].to_int(), -1);
  // n = size * 2 went through aten::mul.int with the symbolic size.
  EXPECT_EQ(rec.ops[3], "aten::mul.int@4");
  EXPECT_NE(dynamic_cast<SymInt*>(rec.given[3][0].to_object().get()), nullptr);
  EXPECT_EQ(rec.conversions,
            (std::vector<std::string>{"range:x.size(0)=2(sym)@6", "range:x.shape[1]=3(sym)@9",
                                      "index:x.size(0)=2(sym)@11"}));
  // What the entry returns keeps the symbolic value for the tracer.
  EXPECT_EQ(v.tuple_items()[1].to_int(), 30);
}

TEST(Hooks, SymbolicBoolsAskBeforeBranching) {
  struct SymBools : Recorder {
    IValue after_op(const OpDef& op, const ValueList& a, const ValueList& g, IValue result,
                    const SourceRange& r) override {
      Recorder::after_op(op, a, g, result, r);
      if (op.schema.qualified_name() == "aten::gt.int") {
        return IValue(std::static_pointer_cast<Object>(std::make_shared<SymInt>(result)));
      }
      return result;
    }
  } rec;
  rec.symbolic_sizes = true;
  run_hooked("def f(x):\n    if x.size(0) > 1:\n        return 1\n    return 0\n", rec,
             {{"x", floats({2}, {1, 2})}});
  EXPECT_EQ(rec.conversions, (std::vector<std::string>{"bool:x.size(0) > 1=True(sym)@2"}));
}

TEST(Hooks, ModuleCallsAndNoHooksDuringPrepare) {
  const char* src =
      "import torch\nimport torch.nn as nn\n"
      "class M(nn.Module):\n"
      "    def __init__(self):\n"
      "        super().__init__()\n"
      "        self.fc = nn.Linear(2, 2)\n"
      "        self.w = nn.Parameter(torch.randn(2))\n"
      "    def helper(self, h):\n"
      "        return h * self.w\n"
      "    def forward(self, x):\n"
      "        return self.helper(torch.relu(self.fc(x)))\n";
  Recorder rec;
  run_hooked(src, rec, {{"x", floats({1, 2}, {1, 2})}});
  EXPECT_EQ(rec.ops,
            (std::vector<std::string>{"aten::linear@11", "aten::relu@11", "aten::mul.Tensor@9"}));
  EXPECT_EQ(rec.events, (std::vector<std::string>{"enter M.forward", "enter M.helper",
                                                  "exit helper", "exit forward"}));
}

}  // namespace
}  // namespace d2s::testing
