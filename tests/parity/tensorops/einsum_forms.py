# torch.einsum in the forms models use: batched products (attention scores and
# values), an outer product, a trace-free contraction to a scalar, a transpose, an
# implicit output (no arrow), three operands, a size-1 dim broadcast, and the list form.
import torch


def einsum_forms(q, k, u, v, w):
    scores = torch.einsum("bhqd,bhkd->bhqk", q, k)
    ctx = torch.einsum("bhqk,bhkd->bhqd", scores.softmax(-1), k)
    outer = torch.einsum("i,j->ij", u, v)
    dot = torch.einsum("i,i->", u, u)
    t = torch.einsum("ij->ji", w)
    implicit = torch.einsum("ij,jk", w, w.t())
    three = torch.einsum("i,ij,j->", u, w, v)
    chain = torch.einsum("ij,jk,kl->il", w, w.t(), w)
    bcast = torch.einsum("bij,bjk->bik", q[:1, 0], k[:, 1].transpose(1, 2))
    listed = torch.einsum("ij,j->i", [w, v])
    total = ctx.sum() + outer.sum() + dot + (t * t).sum() + implicit.sum() + three
    total = total + chain.sum() + bcast.tanh().sum() + listed.sum()
    return total, scores, ctx, outer, dot, t, implicit, three, chain, bcast, listed
