// Grad mode: on by default. GradModeGuard sets it for a scope and restores the
// previous mode after (torch.no_grad(), torch.enable_grad()); NoGradGuard turns it off.
// The flag is thread-local, as PyTorch's: each thread runs its own programs.
//
// It lives with the tensors, below the ops and the autograd, as PyTorch's GradMode
// lives in c10: kernels that behave differently under no_grad read it too.
#pragma once

namespace d2s {

namespace detail {
// Inline, so that run_op (core/autograd) reads it without a call on every op.
inline thread_local bool grad_mode = true;
}  // namespace detail

inline bool grad_mode_enabled() {
  return detail::grad_mode;
}

class GradModeGuard {
 public:
  explicit GradModeGuard(bool enabled) : previous_(detail::grad_mode) {
    detail::grad_mode = enabled;
  }
  ~GradModeGuard() { detail::grad_mode = previous_; }
  GradModeGuard(const GradModeGuard&) = delete;
  GradModeGuard& operator=(const GradModeGuard&) = delete;

 private:
  bool previous_;
};

struct NoGradGuard : GradModeGuard {
  NoGradGuard() : GradModeGuard(false) {}
};

}  // namespace d2s
