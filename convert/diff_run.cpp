// Running the traced and parsed graphs on named inputs and comparing their results,
// for the diff's agreement table and its counterexamples.
#include <cmath>
#include <sstream>

#include "convert/diff_internal.h"
#include "convert/run_graph.h"
#include "core/base/error.h"
#include "core/exec/executor.h"
#include "core/tensor/random.h"

namespace d2s::convert::diff_detail {

NamedInputs clone_inputs(const NamedInputs& inputs) {
  NamedInputs out;
  out.reserve(inputs.size());
  for (const auto& [name, v] : inputs) {
    if (!v.is_tensor() || !v.to_tensor().defined()) {
      out.emplace_back(name, v);
      continue;
    }
    // The copy keeps `requires_grad: true`: a program that calls backward() needs it.
    Tensor copy = v.to_tensor().clone();
    copy.set_requires_grad(v.to_tensor().requires_grad());
    out.emplace_back(name, IValue(copy));
  }
  return out;
}

struct GraphRun::Impl {
  struct Slot {
    std::string name;
    std::optional<IValue> fixed;  // a parameter, or an argument's default
    bool used = true;             // an unused input (a guarded scalar) may be left out
    bool parameter = false;       // a module parameter (requires grad, as in eager mode)
  };
  std::vector<Slot> slots;
  uint64_t seed = 0;
  std::unique_ptr<Generator> generator;
  std::unique_ptr<Executor> executor;
};

GraphRun::GraphRun(const ir::Graph& graph, const LoweredGraph& lowered, const DiffOptions& options)
    : impl_(std::make_unique<Impl>()) {
  const bool parsed = &graph == lowered.graph.get();
  for (size_t i = 0; i < graph.inputs().size(); ++i) {
    Impl::Slot slot;
    slot.name = graph.inputs()[i]->debug_name();
    slot.used = graph.inputs()[i]->has_uses();
    for (const auto& [name, t] : lowered.parameters) {
      if (name == slot.name) {
        slot.fixed = IValue(t);
        slot.parameter = true;
      }
    }
    if (parsed && i < lowered.argument_defaults.size() && lowered.argument_defaults[i]) {
      slot.fixed = *lowered.argument_defaults[i];
    }
    impl_->slots.push_back(std::move(slot));
  }
  impl_->seed = options.run.seed;
  impl_->generator = std::make_unique<Generator>(options.run.seed);
  ExecOptions exec;
  exec.generator = impl_->generator.get();
  exec.training = options.run.training;
  exec.out = nullptr;  // what a graph prints is not part of the comparison
  exec.max_loop_iterations = options.run.limits.max_total_iterations;
  impl_->executor = std::make_unique<Executor>(graph, exec);
}

GraphRun::~GraphRun() = default;
GraphRun::GraphRun(GraphRun&&) noexcept = default;

ValueList GraphRun::run(const NamedInputs& inputs) const {
  ValueList values;
  values.reserve(impl_->slots.size());
  for (const Impl::Slot& slot : impl_->slots) {
    const IValue* given = nullptr;
    for (const auto& [name, v] : inputs) {
      if (name == slot.name) given = &v;
    }
    IValue v;
    if (given) {
      v = *given;
    } else if (slot.fixed) {
      v = *slot.fixed;
    } else if (!slot.used) {
      v = IValue();
    } else {
      throw Error("no value for the graph input '" + slot.name + "'");
    }
    // In-place ops in a graph (`s += 1` traced as add_) must not change the caller's
    // tensors or the parameters.
    // A graph that calls backward() needs what requires grad in eager mode to.
    if (v.is_tensor() && v.to_tensor().defined()) {
      const Tensor& t = v.to_tensor();
      Tensor copy = t.clone();
      if (impl_->executor->calls_backward() && t.dtype() == DType::Float32 &&
          (t.requires_grad() || slot.parameter)) {
        copy.set_requires_grad(true);
      }
      v = IValue(copy);
    }
    values.push_back(std::move(v));
  }
  *impl_->generator = Generator(impl_->seed);
  return impl_->executor->run(values);
}

void GraphRun::set_check_guards(bool on) {
  impl_->executor->set_check_guards(on);
}

namespace {

bool close(double a, double b, double rtol, double atol) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::abs(a - b) <= atol + rtol * std::abs(b);
}

bool value_close(const IValue& a, const IValue& b, double rtol, double atol, std::string* why) {
  auto fail = [&](const std::string& msg) {
    if (why) *why = msg;
    return false;
  };
  if (a.is_tensor() && b.is_tensor()) {
    const Tensor& x = a.to_tensor();
    const Tensor& y = b.to_tensor();
    if (x.shape() != y.shape()) {
      return fail("shape " + shape_str(x.shape()) + " vs " + shape_str(y.shape()));
    }
    if (x.dtype() != y.dtype()) {
      return fail(std::string("dtype ") + dtype_name(x.dtype()) + " vs " + dtype_name(y.dtype()));
    }
    double worst = 0;
    int64_t worst_at = -1;
    for (int64_t i = 0; i < x.numel(); ++i) {
      const double p = x.value_at(i), q = y.value_at(i);
      if (!close(p, q, rtol, atol)) {
        const double d = std::isfinite(p - q) ? std::abs(p - q) : INFINITY;
        if (worst_at < 0 || d > worst) worst = d, worst_at = i;
      }
    }
    if (worst_at < 0) return true;
    std::ostringstream m;
    m.precision(6);
    m << "element " << worst_at << ": " << x.value_at(worst_at) << " vs " << y.value_at(worst_at);
    if (std::isfinite(worst)) m << " (|diff| " << worst << ")";
    return fail(m.str());
  }
  if (a.is_number() && b.is_number()) {
    if (close(a.to_double(), b.to_double(), rtol, atol)) return true;
    return fail(a.repr() + " vs " + b.repr());
  }
  if ((a.is_tuple() || a.is_list()) && (b.is_tuple() || b.is_list())) {
    if (a.items().size() != b.items().size()) {
      return fail(std::to_string(a.items().size()) + " items vs " +
                  std::to_string(b.items().size()));
    }
    for (size_t i = 0; i < a.items().size(); ++i) {
      std::string inner;
      if (!value_close(a.items()[i], b.items()[i], rtol, atol, &inner)) {
        return fail("item " + std::to_string(i) + ": " + inner);
      }
    }
    return true;
  }
  if (a.type_name() != b.type_name()) return fail(a.type_name() + " vs " + b.type_name());
  if (a.str() != b.str()) return fail(a.repr() + " vs " + b.repr());
  return true;
}

}  // namespace

bool values_close(const ValueList& a, const ValueList& b, double rtol, double atol,
                  std::string* why, const std::vector<std::string>* names) {
  if (a.size() != b.size()) {
    if (why) *why = std::to_string(a.size()) + " outputs vs " + std::to_string(b.size());
    return false;
  }
  for (size_t i = 0; i < a.size(); ++i) {
    std::string inner;
    if (!value_close(a[i], b[i], rtol, atol, &inner)) {
      if (why) {
        *why = "output " + (names && i < names->size() ? (*names)[i] : std::to_string(i)) + ", " +
               inner;
      }
      return false;
    }
  }
  return true;
}

}  // namespace d2s::convert::diff_detail
