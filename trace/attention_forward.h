// The forwards of nn.MultiheadAttention and the nn.Transformer* layers (encoder and
// decoder layers and stacks, nn.Transformer) as PyTorch 1.13's Python runs them
// (F.multi_head_attention_forward and the layers' forward on the ordinary path; 1.13's eval-mode
// "fast path" computes the same numbers with a fused kernel), written once over a builder so that
// the interpreter (eager and trace: every op goes through Interpreter::call_op) and the parse route
// (convert/lower_attention.cpp: every op is emitted into the graph) run the same composition of
// registry ops. There is no fused attention kernel: a trace shows the linear, view, transpose,
// baddbmm, softmax, bmm ops, as torch.jit.trace does.
//
// A builder B provides, for its value type B::V (an IValue, or an ir::Value*) and its
// condition type B::C (a bool, or a bool ir::Value*):
//   V op(name, args, kwargs)   a registry op;   V k(IValue) a constant;  V none()
//   V list(items), V item(tuple, i), V mul(a, b) (Python's *), V add(a, b) (Python's +)
//   bool is_none(v), bool same(a, b) (Python's `is`)
//   optional<int64_t> rank(v), optional<DType> dtype(v), optional<Shape> shape(v) (all
//     dims known), optional<int64_t> int_value(v) (an int known now)
//   V attr(path)               a module attribute ("out_proj.weight"); None when unset
//   V call(path, args, kwargs) calls a module attribute (a submodule or a function)
//   V dtype_const(DType)
//   C rank_is(v, n), C dtype_is(v, dtype); optional<bool> known(c); V select(c, then, else)
//   [[noreturn]] fail(message, hint)
// Hyperparameters come from the instance (`m`), which both routes hold.
#pragma once

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/tensor/ivalue.h"
#include "core/tensor/tensor.h"
#include "trace/py_objects.h"

namespace d2s::interp {

// "self_attn.in_proj_weight" as its parts, the path the builders walk to a parameter.
inline std::vector<std::string> attribute_path(const std::string& dotted) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t dot; (dot = dotted.find('.', start)) != std::string::npos; start = dot + 1) {
    parts.push_back(dotted.substr(start, dot - start));
  }
  parts.push_back(dotted.substr(start));
  return parts;
}

inline IValue hyper(const InstanceValue& m, const char* name) {
  const IValue* v = m.get(name);
  return v ? *v : IValue();
}

// `torch.Size([2, 3])` and `(2, 3)`, as PyTorch's messages print a shape and a tuple.
inline std::string size_text(const Shape& s) {
  std::string out = "torch.Size([";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "])";
}
inline std::string tuple_text(const std::vector<int64_t>& s) {
  std::string out = "(";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + (s.size() == 1 ? ",)" : ")");
}
inline std::string dtype_text(DType d) {
  return std::string("torch.") + dtype_name(d);
}

template <class B>
struct AttentionForward {
  using V = typename B::V;
  using KW = std::vector<std::pair<std::string, V>>;
  B& b;

  V op(const char* name, std::vector<V> args, KW kw = {}) {
    return b.op(name, std::move(args), std::move(kw));
  }
  V i(int64_t n) { return b.k(IValue(n)); }
  V slice(V t, int64_t dim, int64_t from, int64_t to) {
    return op("aten::slice", {t, i(dim), i(from), i(to), i(1)});
  }
  V size(V t, int64_t dim) { return op("aten::size", {t, i(dim)}); }
  V linear(V x, V w, V bias) { return op("aten::linear", {x, w, bias}); }
  // The ints of `vs` when all are known now.
  std::optional<std::vector<int64_t>> ints(const std::vector<V>& vs) {
    std::vector<int64_t> out;
    for (const V& v : vs) {
      std::optional<int64_t> n = b.int_value(v);
      if (!n) return std::nullopt;
      out.push_back(*n);
    }
    return out;
  }
  void check_key_padding_dtype(const V& kpm) {
    if (b.is_none(kpm)) return;
    std::optional<DType> d = b.dtype(kpm);
    if (d && *d != DType::Bool && *d != DType::Float32) {
      b.fail("AssertionError: only bool and floating types of key_padding_mask are supported");
    }
  }

  // nn.MultiheadAttention.forward: (attn_output, attn_weights or None). What a rank or a
  // dtype decides is a condition (B::C): known now in the interpreter, and in the parse
  // route where the types say it, else a prim::If on aten::dim / prim::dtype, as
  // TorchScript's graph of the module has.
  V mha(const InstanceValue& m, V query, V key, V value, V kpm, bool need_weights, V attn_mask,
        bool average) {
    const int64_t E = hyper(m, "embed_dim").to_int();
    const int64_t H = hyper(m, "num_heads").to_int();
    const int64_t head_dim = hyper(m, "head_dim").to_int();
    const bool batch_first = hyper(m, "batch_first").to_bool();
    const bool same_dim = hyper(m, "_qkv_same_embed_dim").to_bool();
    const bool training = hyper(m, "training").is_bool() && hyper(m, "training").to_bool();
    const double dropout_p = training ? hyper(m, "dropout").to_double() : 0.0;
    const bool add_zero_attn = hyper(m, "add_zero_attn").to_bool();
    const bool bias_kv = hyper(m, "bias_k").is_tensor() && hyper(m, "bias_v").is_tensor();

    const auto batched = b.rank_is(query, 3);
    check_key_padding_dtype(kpm);
    auto when_batched = [&](V t, auto f) {
      return b.select(
          batched, [&] { return f(t); }, [&] { return t; });
    };
    if (batch_first) {
      auto tr = [&](V t) { return op("aten::transpose", {t, i(1), i(0)}); };
      if (b.same(key, value)) {
        if (b.same(query, key)) {
          query = key = value = when_batched(query, tr);
        } else {
          query = when_batched(query, tr);
          key = value = when_batched(key, tr);
        }
      } else {
        query = when_batched(query, tr);
        key = when_batched(key, tr);
        value = when_batched(value, tr);
      }
    }
    shape_check(query, key, value, kpm, attn_mask, H);
    auto unless_batched = [&](V t, int64_t dim) {
      return b.select(
          batched, [&] { return t; },
          [&] {
            return op("aten::unsqueeze", {t, i(dim)});
          });
    };
    if (b.known(batched) != std::optional<bool>(true)) {
      query = unless_batched(query, 1);
      key = unless_batched(key, 1);
      value = unless_batched(value, 1);
      if (!b.is_none(kpm)) kpm = unless_batched(kpm, 0);
    }
    V tgt_len = size(query, 0), bsz = size(query, 1), embed_dim = size(query, 2);
    V src_len = size(key, 0);
    if (std::optional<int64_t> e = b.int_value(embed_dim); e && *e != E) {
      b.fail("AssertionError: was expecting embedding dimension of " + std::to_string(E) +
             ", but got " + std::to_string(*e));
    }
    check_key_value_shapes(key, value, same_dim);

    // The in-projection (_in_projection_packed / _in_projection).
    V bias = b.attr("in_proj_bias");
    const bool has_bias = !b.is_none(bias);
    auto bias_part = [&](int64_t from, int64_t to) {
      return has_bias ? slice(bias, 0, from, to) : b.none();
    };
    V q, k, v;
    if (same_dim) {
      V w = b.attr("in_proj_weight");
      if (b.same(key, value) && b.same(query, key)) {
        V qkv = linear(query, w, bias);
        q = slice(qkv, -1, 0, E);
        k = slice(qkv, -1, E, 2 * E);
        v = slice(qkv, -1, 2 * E, 3 * E);
      } else if (b.same(key, value)) {
        q = linear(query, slice(w, 0, 0, E), bias_part(0, E));
        V kv = linear(key, slice(w, 0, E, 3 * E), bias_part(E, 3 * E));
        k = slice(kv, -1, 0, E);
        v = slice(kv, -1, E, 2 * E);
      } else {
        q = linear(query, slice(w, 0, 0, E), bias_part(0, E));
        k = linear(key, slice(w, 0, E, 2 * E), bias_part(E, 2 * E));
        v = linear(value, slice(w, 0, 2 * E, 3 * E), bias_part(2 * E, 3 * E));
      }
    } else {
      q = linear(query, b.attr("q_proj_weight"), bias_part(0, E));
      k = linear(key, b.attr("k_proj_weight"), bias_part(E, 2 * E));
      v = linear(value, b.attr("v_proj_weight"), bias_part(2 * E, 3 * E));
    }

    if (!b.is_none(attn_mask)) attn_mask = prepare_attn_mask(attn_mask, tgt_len, bsz, src_len, H);
    auto pad_one = [&](V t) { return op("aten::pad", {t, b.list({i(0), i(1)})}); };
    if (bias_kv) {
      auto repeated = [&](const char* name) {
        return op("aten::repeat", {b.attr(name), b.list({i(1), bsz, i(1)})});
      };
      k = op("aten::cat", {b.list({k, repeated("bias_k")})});
      v = op("aten::cat", {b.list({v, repeated("bias_v")})});
      if (!b.is_none(attn_mask)) attn_mask = pad_one(attn_mask);
      if (!b.is_none(kpm)) kpm = pad_one(kpm);
    }
    V heads = b.mul(bsz, i(H));
    auto split_heads = [&](V t, V len) {
      V c = op("aten::contiguous", {t});
      return op("aten::transpose",
                {op("aten::view", {c, b.list({len, heads, i(head_dim)})}), i(0), i(1)});
    };
    q = split_heads(q, tgt_len);
    k = split_heads(k, size(k, 0));
    v = split_heads(v, size(v, 0));
    if (add_zero_attn) {
      auto zeros = [&] {
        return op("aten::zeros", {b.list({heads, i(1), i(head_dim)})},
                  {{"dtype", b.dtype_const(DType::Float32)}});
      };
      k = op("aten::cat", {b.list({k, zeros()}), i(1)});
      v = op("aten::cat", {b.list({v, zeros()}), i(1)});
      if (!b.is_none(attn_mask)) attn_mask = pad_one(attn_mask);
      if (!b.is_none(kpm)) kpm = pad_one(kpm);
    }
    src_len = size(k, 1);
    const double inf = std::numeric_limits<double>::infinity();
    if (!b.is_none(kpm)) {
      std::optional<Shape> ks = b.shape(kpm);
      // k.size(1): the key's length, one more for bias_k and one for the zero attention.
      std::optional<std::vector<int64_t>> want = ints({bsz, size(key, 0)});
      if (want) (*want)[1] += (bias_kv ? 1 : 0) + (add_zero_attn ? 1 : 0);
      if (ks && want && *ks != Shape(want->begin(), want->end())) {
        b.fail("AssertionError: expecting key_padding_mask shape of " + tuple_text(*want) +
               ", but got " + size_text(*ks));
      }
      kpm = op("aten::view", {kpm, b.list({bsz, i(1), i(1), src_len})});
      kpm = op("aten::expand", {kpm, b.list({i(-1), i(H), i(-1), i(-1)})});
      kpm = op("aten::reshape", {kpm, b.list({heads, i(1), src_len})});
      if (b.is_none(attn_mask)) {
        attn_mask = kpm;
      } else {
        V mask = attn_mask;
        attn_mask = b.select(
            b.dtype_is(mask, DType::Bool),
            [&] {
              return op("aten::logical_or", {mask, kpm});
            },
            [&] {
              return op("aten::masked_fill", {mask, kpm, b.k(IValue(-inf))});
            });
      }
    }
    if (!b.is_none(attn_mask)) {
      V mask = attn_mask;
      attn_mask = b.select(
          b.dtype_is(mask, DType::Bool),
          [&] {
            V zeros = op("aten::zeros_like", {mask}, {{"dtype", b.dtype_const(DType::Float32)}});
            return op("aten::masked_fill", {zeros, mask, b.k(IValue(-inf))});
          },
          [&] { return mask; });
    }

    V q_scaled = op("aten::div", {q, b.k(IValue(std::sqrt(static_cast<double>(head_dim))))});
    V k_t = op("aten::transpose", {k, i(-2), i(-1)});
    V weights = b.is_none(attn_mask) ? op("aten::bmm", {q_scaled, k_t})
                                     : op("aten::baddbmm", {attn_mask, q_scaled, k_t});
    weights = op("aten::softmax", {weights, i(-1), b.none()});
    if (dropout_p > 0.0) {
      weights = op("aten::dropout", {weights, b.k(IValue(dropout_p)), b.k(IValue(true))});
    }
    V out = op("aten::bmm", {weights, v});
    out = op("aten::contiguous", {op("aten::transpose", {out, i(0), i(1)})});
    out = op("aten::view", {out, b.list({b.mul(tgt_len, bsz), embed_dim})});
    out = linear(out, b.attr("out_proj.weight"), b.attr("out_proj.bias"));
    out = op("aten::view", {out, b.list({tgt_len, bsz, size(out, 1)})});
    auto squeeze_unless_batched = [&](V t, int64_t dim) {
      return b.select(
          batched, [&] { return t; },
          [&] {
            return op("aten::squeeze", {t, i(dim)});
          });
    };
    V returned_weights = b.none();
    if (need_weights) {
      returned_weights = op("aten::view", {weights, b.list({bsz, i(H), tgt_len, src_len})});
      if (average) {
        returned_weights = op("aten::sum", {returned_weights, b.list({i(1)}), b.k(IValue(false))});
        returned_weights = op("aten::div", {returned_weights, i(H)});
      }
      returned_weights = squeeze_unless_batched(returned_weights, 0);
    }
    out = squeeze_unless_batched(out, 1);
    if (batch_first) {
      out = when_batched(out, [&](V t) { return op("aten::transpose", {t, i(1), i(0)}); });
    }
    return b.tuple({out, returned_weights});
  }

  // _mha_shape_check, where the ranks are known.
  void shape_check(const V& query, const V& key, const V& value, const V& kpm, const V& attn_mask,
                   int64_t H) {
    const std::optional<int64_t> qr = b.rank(query), kr = b.rank(key), vr = b.rank(value);
    const std::optional<int64_t> pr = b.is_none(kpm) ? std::nullopt : b.rank(kpm);
    const std::optional<int64_t> mr = b.is_none(attn_mask) ? std::nullopt : b.rank(attn_mask);
    if (!qr) return;
    const bool batched = *qr == 3;
    if (*qr != 2 && *qr != 3) {
      b.fail("AssertionError: query should be unbatched 2D or batched 3D tensor but received " +
             std::to_string(*qr) + "-D query tensor");
    }
    const std::string which = batched ? "For batched (3-D) `query`" : "For unbatched (2-D) `query`";
    const int64_t want = batched ? 3 : 2;
    if (kr && vr && (*kr != want || *vr != want)) {
      b.fail("AssertionError: " + which + ", expected `key` and `value` to be " +
             std::to_string(want) + "-D but found " + std::to_string(*kr) + "-D and " +
             std::to_string(*vr) + "-D tensors respectively");
    }
    if (pr && *pr != want - 1) {
      b.fail("AssertionError: " + which + ", expected `key_padding_mask` to be `None` or " +
             std::to_string(want - 1) + "-D but found " + std::to_string(*pr) +
             "-D tensor instead");
    }
    if (mr && *mr != 2 && *mr != 3) {
      b.fail("AssertionError: " + which +
             ", expected `attn_mask` to be `None`, 2-D or 3-D but found " + std::to_string(*mr) +
             "-D tensor instead");
    }
    if (!batched && mr && *mr == 3) {
      std::optional<Shape> ms = b.shape(attn_mask), qs = b.shape(query), ks = b.shape(key);
      if (ms && qs && ks) {
        std::vector<int64_t> expected{H, (*qs)[0], (*ks)[0]};
        if (*ms != Shape(expected.begin(), expected.end())) {
          b.fail("AssertionError: Expected `attn_mask` shape to be " + tuple_text(expected) +
                 " but got " + size_text(*ms));
        }
      }
    }
  }

  void check_key_value_shapes(const V& key, const V& value, bool same_dim) {
    std::optional<Shape> ks = b.shape(key), vs = b.shape(value);
    if (!ks || !vs) return;
    if (same_dim) {
      if (*ks != *vs) {
        b.fail("AssertionError: key shape " + size_text(*ks) + " does not match value shape " +
               size_text(*vs));
      }
      return;
    }
    Shape k2(ks->begin(), ks->begin() + std::min<size_t>(2, ks->size()));
    Shape v2(vs->begin(), vs->begin() + std::min<size_t>(2, vs->size()));
    if (k2 != v2) {
      b.fail("AssertionError: key's sequence and batch dims " + size_text(k2) +
             " do not match value's " + size_text(v2));
    }
  }

  V prepare_attn_mask(V mask, const V& tgt_len, const V& bsz, const V& src_len, int64_t H) {
    if (std::optional<DType> d = b.dtype(mask); d && *d != DType::Bool && *d != DType::Float32) {
      b.fail("AssertionError: Only float, byte, and bool types are supported for attn_mask, not " +
             dtype_text(*d));
    }
    std::optional<Shape> ms = b.shape(mask);
    if (std::optional<int64_t> r = b.rank(mask); r && *r != 2 && *r != 3) {
      b.fail("RuntimeError: attn_mask's dimension " + std::to_string(*r) + " is not supported");
    }
    if (ms && ms->size() == 2) {
      std::optional<std::vector<int64_t>> want = ints({tgt_len, src_len});
      if (want && *ms != Shape(want->begin(), want->end())) {
        b.fail("RuntimeError: The shape of the 2D attn_mask is " + size_text(*ms) +
               ", but should be " + tuple_text(*want) + ".");
      }
    }
    if (ms && ms->size() == 3) {
      std::optional<std::vector<int64_t>> want = ints({bsz, tgt_len, src_len});
      if (want) {
        (*want)[0] *= H;
        if (*ms != Shape(want->begin(), want->end())) {
          b.fail("RuntimeError: The shape of the 3D attn_mask is " + size_text(*ms) +
                 ", but should be " + tuple_text(*want) + ".");
        }
      }
    }
    return b.select(
        b.rank_is(mask, 2),
        [&] {
          return op("aten::unsqueeze", {mask, i(0)});
        },
        [&] { return mask; });
  }

  // The feed-forward block of an encoder or decoder layer, then its dropout `drop`.
  V ff_block(V x, const char* drop) {
    V h = b.call({"activation"}, {b.call({"linear1"}, {x}, {})}, {});
    h = b.call({"linear2"}, {b.call({"dropout"}, {h}, {})}, {});
    return b.call({drop}, {h}, {});
  }
  // An attention submodule called as the layers' _sa_block / _mha_block call it.
  V attention_block(const char* attn, const char* drop, V x, V mem, V mask, V kpm) {
    V r = b.call(
        {attn}, {x, mem, mem},
        {{"attn_mask", mask}, {"key_padding_mask", kpm}, {"need_weights", b.k(IValue(false))}});
    return b.call({drop}, {b.item(r, 0)}, {});
  }

  // nn.TransformerEncoderLayer.forward(src, src_mask, src_key_padding_mask).
  V encoder_layer(const InstanceValue& m, V src, V mask, V kpm) {
    check_key_padding_dtype(kpm);
    auto sa = [&](V x) { return attention_block("self_attn", "dropout1", x, x, mask, kpm); };
    V x = src;
    if (hyper(m, "norm_first").to_bool()) {
      x = b.add(x, sa(b.call({"norm1"}, {x}, {})));
      x = b.add(x, ff_block(b.call({"norm2"}, {x}, {}), "dropout2"));
    } else {
      x = b.call({"norm1"}, {b.add(x, sa(x))}, {});
      x = b.call({"norm2"}, {b.add(x, ff_block(x, "dropout2"))}, {});
    }
    return x;
  }

  // nn.TransformerDecoderLayer.forward(tgt, memory, tgt_mask, memory_mask,
  // tgt_key_padding_mask, memory_key_padding_mask).
  V decoder_layer(const InstanceValue& m, const std::vector<V>& a) {
    const V& memory = a[1];
    auto sa = [&](V x) { return attention_block("self_attn", "dropout1", x, x, a[2], a[4]); };
    auto mha_block = [&](V x) {
      return attention_block("multihead_attn", "dropout2", x, memory, a[3], a[5]);
    };
    V x = a[0];
    if (hyper(m, "norm_first").to_bool()) {
      x = b.add(x, sa(b.call({"norm1"}, {x}, {})));
      x = b.add(x, mha_block(b.call({"norm2"}, {x}, {})));
      x = b.add(x, ff_block(b.call({"norm3"}, {x}, {}), "dropout3"));
    } else {
      x = b.call({"norm1"}, {b.add(x, sa(x))}, {});
      x = b.call({"norm2"}, {b.add(x, mha_block(x))}, {});
      x = b.call({"norm3"}, {b.add(x, ff_block(x, "dropout3"))}, {});
    }
    return x;
  }

  // nn.TransformerEncoder.forward(src, mask, src_key_padding_mask): the layers in turn,
  // then the norm when there is one.
  V encoder(const InstanceValue& m, V src, V mask, V kpm) {
    check_key_padding_dtype(kpm);
    V out = src;
    const auto* layers = as_obj<InstanceValue>(hyper(m, "layers"));
    for (const std::string& name : layers->children) {
      out = b.call({"layers", name}, {out}, {{"src_mask", mask}, {"src_key_padding_mask", kpm}});
    }
    if (!hyper(m, "norm").is_none()) out = b.call({"norm"}, {out}, {});
    return out;
  }

  // nn.TransformerDecoder.forward(tgt, memory, masks...).
  V decoder(const InstanceValue& m, const std::vector<V>& a) {
    V out = a[0];
    const auto* layers = as_obj<InstanceValue>(hyper(m, "layers"));
    for (const std::string& name : layers->children) {
      out = b.call({"layers", name}, {out, a[1]},
                   {{"tgt_mask", a[2]},
                    {"memory_mask", a[3]},
                    {"tgt_key_padding_mask", a[4]},
                    {"memory_key_padding_mask", a[5]}});
    }
    if (!hyper(m, "norm").is_none()) out = b.call({"norm"}, {out}, {});
    return out;
  }

  // nn.Transformer.forward(src, tgt, src_mask, tgt_mask, memory_mask,
  // src_key_padding_mask, tgt_key_padding_mask, memory_key_padding_mask); PyTorch's checks
  // of the batch and feature sizes where they are known now.
  V transformer(const InstanceValue& m, const std::vector<V>& a) {
    const V& src = a[0];
    const V& tgt = a[1];
    const bool batch_first = hyper(m, "batch_first").to_bool();
    const int64_t d_model = hyper(m, "d_model").to_int();
    if (b.rank(src) == std::optional<int64_t>(3)) {
      const int64_t dim = batch_first ? 0 : 1;
      std::optional<int64_t> sb = b.int_value(size(src, dim)), tb = b.int_value(size(tgt, dim));
      if (sb && tb && *sb != *tb)
        b.fail("RuntimeError: the batch number of src and tgt must be equal");
    }
    std::optional<int64_t> sf = b.int_value(size(src, -1)), tf = b.int_value(size(tgt, -1));
    if ((sf && *sf != d_model) || (tf && *tf != d_model)) {
      b.fail("RuntimeError: the feature number of src and tgt must be equal to d_model");
    }
    V memory = b.call({"encoder"}, {src}, {{"mask", a[2]}, {"src_key_padding_mask", a[5]}});
    return b.call({"decoder"}, {tgt, memory},
                  {{"tgt_mask", a[3]},
                   {"memory_mask", a[4]},
                   {"tgt_key_padding_mask", a[6]},
                   {"memory_key_padding_mask", a[7]}});
  }

  // The forward of module `m` for its bound arguments: the tensors (or None) in the order
  // of attention_forward_params, and the bool flags (need_weights, average_attn_weights).
  V forward(const InstanceValue& m, const std::vector<V>& a, const std::vector<bool>& flags) {
    if (m.type == "MultiheadAttention")
      return mha(m, a[0], a[1], a[2], a[3], flags[0], a[4], flags[1]);
    if (m.type == "TransformerEncoderLayer") return encoder_layer(m, a[0], a[1], a[2]);
    if (m.type == "TransformerEncoder") return encoder(m, a[0], a[1], a[2]);
    if (m.type == "TransformerDecoderLayer") return decoder_layer(m, a);
    if (m.type == "TransformerDecoder") return decoder(m, a);
    return transformer(m, a);
  }
};

}  // namespace d2s::interp
