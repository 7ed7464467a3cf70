// The convolution, pooling, reshaping and activation layers of torch.nn that d2s
// implements itself (nn_conv_modules.cpp): Conv1d, Conv2d, MaxPool1d, MaxPool2d,
// AvgPool1d, AvgPool2d, AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveMaxPool2d,
// Flatten, LeakyReLU, SiLU, Softplus, Softmax, LogSoftmax, Hardtanh, ReLU6, ELU and
// SELU. They are built-in modules of kind NnKind::Layer. Each one's forward is one
// registry op over its input, its parameters and its hyperparameters (LayerCall), so
// the interpreter (eager and trace) and the lowering (parse) run the same op with the
// same arguments.
#pragma once

#include <string>
#include <vector>

#include "trace/interp.h"

namespace d2s::interp {

bool is_layer_class(const std::string& type);  // "Conv2d", ...
const std::vector<std::string>& layer_class_names();

// One argument of a layer's op: the forward's input, an attribute of the module (a
// parameter, or None), or a constant taken from the module's hyperparameters.
struct LayerArg {
  enum class Kind { Input, Attr, Const };
  Kind kind = Kind::Input;
  std::string attr;
  IValue value;
};
struct LayerCall {
  std::string op;
  std::vector<LayerArg> args;
  bool first_of_tuple = false;  // the op returns (values, indices); forward gives values
  // BatchNorm in training: before the op, this attribute's tensor (num_batches_tracked)
  // gets add_(1); with momentum_from_count >= 0, that argument is 1 / float(the count).
  std::string count_batches;
  int momentum_from_count = -1;
};
// The op a layer's forward runs for an input of `input_rank` dims (-1 when unknown)
// whose spatial sizes print as `spatial` ("[4, 6]", for messages; nn.Upsample's op
// depends on the rank). Throws a d2s::Error at `range` for a configuration d2s does
// not run (MaxPool1d's return_indices) and for PyTorch's errors of F.interpolate.
LayerCall layer_call(const InstanceValue& m, const SourceRange& range, int64_t input_rank = -1,
                     const std::string& spatial = "");

// A new parameter of `shape` drawn from U(-bound, bound) by d2s's generator (the
// default initialisation of Linear-like, convolution and recurrent layers).
IValue uniform_parameter(Interpreter& in, const Shape& shape, float bound,
                         const SourceRange& range);

// Fills a new layer instance from its constructor's arguments (PyTorch's signature,
// checks, attributes and default initialisation).
void construct_layer(Interpreter& in, const IValue& self, InstanceValue& inst, ValueList args,
                     Kwargs kwargs, const SourceRange& range);
// forward(x) in the interpreter; `output_padding`, when given, replaces a transposed
// convolution's (its forward's output_size=).
IValue layer_forward(Interpreter& in, const InstanceValue& m, const IValue& x,
                     const SourceRange& range, const IValue* output_padding = nullptr);
// PyTorch's extra_repr of the layer.
std::string layer_extra_repr(const Interpreter& in, const InstanceValue& m);

// The normalisation layers (nn_norm_modules.cpp): BatchNorm1d/2d, GroupNorm, PReLU,
// GLU, Dropout2d, reached through the functions above.
bool is_norm_layer_class(const std::string& type);
const std::vector<std::string>& norm_layer_class_names();
void construct_norm_layer(Interpreter& in, const IValue& self, InstanceValue& inst, ValueList args,
                          Kwargs kwargs, const SourceRange& range);
LayerCall norm_layer_call(const InstanceValue& m);
std::string norm_extra_repr(const Interpreter& in, const InstanceValue& m);
// Transposed convolution, upsampling, pixel shuffling and padding
// (nn_resize_modules.cpp): ConvTranspose1d/2d, Upsample, UpsamplingNearest2d,
// UpsamplingBilinear2d, PixelShuffle, PixelUnshuffle, ZeroPad2d, ConstantPad1d/2d,
// ReflectionPad1d/2d, ReplicationPad1d/2d.
bool is_resize_layer_class(const std::string& type);
const std::vector<std::string>& resize_layer_class_names();
void construct_resize_layer(Interpreter& in, const IValue& self, InstanceValue& inst,
                            ValueList args, Kwargs kwargs, const SourceRange& range);
LayerCall resize_layer_call(const InstanceValue& m, const SourceRange& range, int64_t input_rank,
                            const std::string& spatial);
std::string resize_extra_repr(const Interpreter& in, const InstanceValue& m);
// ConvTranspose{1,2}d.forward(x, output_size): the output_padding PyTorch's
// _output_padding computes for the input's sizes, with its ValueErrors.
IValue conv_transpose_output_padding(Interpreter& in, const InstanceValue& m, const IValue& x,
                                     const IValue& output_size, const SourceRange& range);
// The index of a transposed convolution's output_padding in its LayerCall's args.
constexpr size_t kConvTransposeOutputPaddingArg = 5;
// F.interpolate (and its older name F.upsample) in the interpreter: the op
// interpolate.h chooses, called on the input.
IValue functional_interpolate(Interpreter& in, const std::string& fname, ValueList args,
                              Kwargs kwargs, const SourceRange& range);
// PyTorch's _check_input_dim message for an input of `rank` dims, or "" when it fits.
std::string norm_input_error(const InstanceValue& m, int64_t rank);

}  // namespace d2s::interp
