// The loss modules of torch.nn — MSELoss, L1Loss, SmoothL1Loss, CrossEntropyLoss,
// NLLLoss, BCEWithLogitsLoss, CTCLoss — with PyTorch's constructor signatures. Calling one runs
// its op of the registry (aten::mse_loss, aten::cross_entropy_loss, ...), the op the
// F.* function of the same loss runs, so eager runs, traces and gradients see one op.
#include "trace/native_value.h"

namespace d2s::interp {

namespace {

struct LossSpec {
  const char* name;  // torch.nn.<name>
  const char* op;    // the registry op
  bool has_weight, has_ignore_index, has_beta, has_label_smoothing, has_pos_weight;
  bool has_log_target = false;  // KLDivLoss, which also takes reduction='batchmean'
};

const LossSpec kLosses[] = {
    {"MSELoss", "aten::mse_loss", false, false, false, false, false},
    {"L1Loss", "aten::l1_loss", false, false, false, false, false},
    {"SmoothL1Loss", "aten::smooth_l1_loss", false, false, true, false, false},
    {"CrossEntropyLoss", "aten::cross_entropy_loss", true, true, false, true, false},
    {"NLLLoss", "aten::nll_loss", true, true, false, false, false},
    {"BCEWithLogitsLoss", "aten::binary_cross_entropy_with_logits", true, false, false, false,
     true},
    {"BCELoss", "aten::binary_cross_entropy", true, false, false, false, false},
    {"KLDivLoss", "aten::kl_div", false, false, false, false, false, true},
};

const char* const kCtcLoss = "torch.nn.CTCLoss";

const LossSpec* find_loss(const std::string& qualname) {
  for (const LossSpec& s : kLosses) {
    if (qualname == std::string("torch.nn.") + s.name) return &s;
  }
  return nullptr;
}

class LossModuleValue : public NativeValue {
 public:
  explicit LossModuleValue(const LossSpec& spec) : spec(spec) {}
  std::string type_name() const override { return spec.name; }

  IValue call(Interpreter& in, ValueList args, Kwargs kwargs, const SourceRange& range) override {
    ValueList a = bind_args(std::string(spec.name) + ".forward",
                            {{"input", std::nullopt}, {"target", std::nullopt}}, std::move(args),
                            std::move(kwargs), range);
    ValueList op_args{a[0], a[1]};
    // The op's argument order (core/ops/kernels_loss.cpp): weight first, then pos_weight for
    // BCE; reduction; ignore_index; label_smoothing or beta.
    if (spec.has_weight) op_args.push_back(weight);
    if (spec.has_pos_weight) op_args.push_back(pos_weight);
    op_args.push_back(reduction);
    if (spec.has_log_target) op_args.push_back(log_target);
    if (spec.has_ignore_index) op_args.push_back(ignore_index);
    if (spec.has_label_smoothing) op_args.push_back(label_smoothing);
    if (spec.has_beta) op_args.push_back(beta);
    return in.call_op(spec.op, std::move(op_args), {}, range);
  }
  bool has_method(const std::string& name) const override { return name == "forward"; }
  IValue call_method(Interpreter& in, const std::string& name, ValueList args, Kwargs kwargs,
                     const SourceRange& range) override {
    (void)name;  // only forward
    return call(in, std::move(args), std::move(kwargs), range);
  }
  std::optional<IValue> attribute(const std::string& name) const override {
    if (name == "reduction") return reduction;
    if (name == "weight" && spec.has_weight) return weight;
    if (name == "ignore_index" && spec.has_ignore_index) return ignore_index;
    if (name == "label_smoothing" && spec.has_label_smoothing) return label_smoothing;
    if (name == "beta" && spec.has_beta) return beta;
    if (name == "pos_weight" && spec.has_pos_weight) return pos_weight;
    if (name == "log_target" && spec.has_log_target) return log_target;
    if (name == "training") return IValue(true);
    return std::nullopt;
  }
  std::string repr() const override { return std::string(spec.name) + "()"; }

  const LossSpec& spec;
  IValue reduction{std::string("mean")};
  IValue weight, pos_weight;
  IValue ignore_index{int64_t{-100}};
  IValue label_smoothing{0.0};
  IValue beta{1.0};
  IValue log_target{false};
};

// nn.CTCLoss(blank=0, reduction='mean', zero_infinity=False): its forward takes
// (log_probs, targets, input_lengths, target_lengths) and runs aten::ctc_loss.
class CtcLossModuleValue : public NativeValue {
 public:
  std::string type_name() const override { return "CTCLoss"; }
  IValue call(Interpreter& in, ValueList args, Kwargs kwargs, const SourceRange& range) override {
    ValueList a = bind_args("CTCLoss.forward",
                            {{"log_probs", std::nullopt},
                             {"targets", std::nullopt},
                             {"input_lengths", std::nullopt},
                             {"target_lengths", std::nullopt}},
                            std::move(args), std::move(kwargs), range);
    return in.call_op("aten::ctc_loss", {a[0], a[1], a[2], a[3], blank, reduction, zero_infinity},
                      {}, range);
  }
  bool has_method(const std::string& name) const override { return name == "forward"; }
  IValue call_method(Interpreter& in, const std::string& name, ValueList args, Kwargs kwargs,
                     const SourceRange& range) override {
    (void)name;  // only forward
    return call(in, std::move(args), std::move(kwargs), range);
  }
  std::optional<IValue> attribute(const std::string& name) const override {
    if (name == "blank") return blank;
    if (name == "reduction") return reduction;
    if (name == "zero_infinity") return zero_infinity;
    if (name == "training") return IValue(true);
    return std::nullopt;
  }
  std::string repr() const override { return "CTCLoss()"; }

  IValue blank{int64_t{0}};
  IValue reduction{std::string("mean")};
  IValue zero_infinity{false};
};

IValue check_reduction(Interpreter& in, const IValue& v, const SourceRange& range) {
  if (!v.is_string() ||
      (v.to_string() != "mean" && v.to_string() != "sum" && v.to_string() != "none")) {
    in.fail("ValueError: " + (v.is_string() ? v.to_string() : in.py_repr(v)) +
                " is not a valid value for reduction",
            range, "use 'mean', 'sum' or 'none'");
  }
  return v;
}

IValue construct_ctc_loss(Interpreter& in, ValueList args, Kwargs kwargs,
                          const SourceRange& range) {
  ValueList a = bind_args("nn.CTCLoss",
                          {{"blank", IValue(int64_t{0})},
                           {"reduction", IValue(std::string("mean"))},
                           {"zero_infinity", IValue(false)}},
                          std::move(args), std::move(kwargs), range);
  auto m = std::make_shared<CtcLossModuleValue>();
  m->blank = IValue(in.to_index(a[0], PyConversion::Scalar, range, "blank"));
  m->reduction = check_reduction(in, a[1], range);
  m->zero_infinity = IValue(in.truthy(a[2], range));
  return IValue(std::static_pointer_cast<Object>(m));
}

}  // namespace

bool is_loss_module_name(const std::string& qualname) {
  return find_loss(qualname) != nullptr || qualname == kCtcLoss;
}

IValue construct_loss_module(Interpreter& in, const std::string& qualname, ValueList args,
                             Kwargs kwargs, const SourceRange& range) {
  if (qualname == kCtcLoss)
    return construct_ctc_loss(in, std::move(args), std::move(kwargs), range);
  const LossSpec& spec = *find_loss(qualname);
  // PyTorch's parameter order for each class.
  std::vector<ParamSpec> params;
  if (spec.has_weight) params.push_back({"weight", IValue()});
  params.push_back({"size_average", IValue()});
  if (spec.has_ignore_index) params.push_back({"ignore_index", IValue(int64_t{-100})});
  params.push_back({"reduce", IValue()});
  params.push_back({"reduction", IValue(std::string("mean"))});
  if (spec.has_beta) params.push_back({"beta", IValue(1.0)});
  if (spec.has_label_smoothing) params.push_back({"label_smoothing", IValue(0.0)});
  if (spec.has_pos_weight) params.push_back({"pos_weight", IValue()});
  if (spec.has_log_target) params.push_back({"log_target", IValue(false)});
  ValueList a =
      bind_args(std::string("nn.") + spec.name, params, std::move(args), std::move(kwargs), range);
  auto m = std::make_shared<LossModuleValue>(spec);
  for (size_t i = 0; i < params.size(); ++i) {
    const std::string name = params[i].name;
    const IValue& v = a[i];
    if (name == "size_average" || name == "reduce") {
      if (!v.is_none()) {
        in.fail("d2s does not support the deprecated `" + name + "` argument of nn." + spec.name,
                range, "use reduction='mean', 'sum' or 'none'");
      }
    } else if (name == "weight" || name == "pos_weight") {
      if (!v.is_none() && !v.is_tensor()) {
        in.fail("TypeError: " + name + " must be a Tensor or None, not " + py_type_name(v), range);
      }
      (name == "weight" ? m->weight : m->pos_weight) = v;
    } else if (name == "reduction") {
      const bool batchmean = spec.has_log_target && v.is_string() && v.to_string() == "batchmean";
      if (!batchmean && (!v.is_string() || (v.to_string() != "mean" && v.to_string() != "sum" &&
                                            v.to_string() != "none"))) {
        in.fail("ValueError: " + (v.is_string() ? v.to_string() : in.py_repr(v)) +
                    " is not a valid value for reduction",
                range, "use 'mean', 'sum' or 'none'");
      }
      m->reduction = v;
    } else if (name == "ignore_index") {
      m->ignore_index = IValue(in.to_index(v, PyConversion::Scalar, range, "ignore_index"));
    } else if (name == "beta") {
      m->beta = IValue(number_arg(in, v, "beta", range));
    } else if (name == "log_target") {
      m->log_target = IValue(in.truthy(v, range));
    } else if (name == "label_smoothing") {
      m->label_smoothing = IValue(number_arg(in, v, "label_smoothing", range));
    }
  }
  return IValue(std::static_pointer_cast<Object>(m));
}

}  // namespace d2s::interp
