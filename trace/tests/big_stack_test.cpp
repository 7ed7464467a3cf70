// run_on_big_stack: jobs get a deep stack, errors come back, runs nest and overlap, and
// the shared stack is reused run after run.
#include "trace/big_stack.h"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/base/error.h"
#include "core/tensor/grad_mode.h"

namespace d2s {
namespace {

// Uses about depth * 64 KB of stack; the volatile buffer keeps every frame that large.
__attribute__((noinline)) int deep(int depth) {
  volatile char frame[64 * 1024];
  frame[0] = static_cast<char>(depth);
  frame[sizeof(frame) - 1] = 1;
  if (depth == 0) return frame[sizeof(frame) - 1];
  return deep(depth - 1) + frame[sizeof(frame) - 1];
}

constexpr int kDepth = 2000;  // 128 MB: sixteen times a default 8 MB stack

TEST(BigStack, JobsRecurseFarDeeperThanADefaultStackAllows) {
  size_t budget = 0;
  int result = 0;
  run_on_big_stack([&](size_t b) {
    budget = b;
    result = deep(kDepth);
  });
  EXPECT_GE(budget, size_t{256} << 20);
  EXPECT_EQ(result, kDepth + 1);
}

TEST(BigStack, ErrorsComeBackToTheCaller) {
  try {
    run_on_big_stack([](size_t) { throw Error("boom"); });
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "boom");
  }
  try {
    run_on_big_stack([](size_t) { throw std::runtime_error("broken invariant"); });
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "internal error: broken invariant");
  }
  try {
    run_on_big_stack([](size_t) { throw 42; });
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "internal error: an unknown exception");
  }
}

TEST(BigStack, TheSharedStackIsReusedAfterRunsAndErrors) {
  auto frame_of_a_run = [] {
    const void* frame = nullptr;
    run_on_big_stack([&](size_t) { frame = __builtin_frame_address(0); });
    return frame;
  };
  const void* first = frame_of_a_run();
  EXPECT_EQ(frame_of_a_run(), first);
  EXPECT_THROW(run_on_big_stack([](size_t) { throw Error("boom"); }), Error);
  EXPECT_EQ(frame_of_a_run(), first);
  // Not the caller's stack: the job ran somewhere else.
  const char* here = static_cast<const char*>(__builtin_frame_address(0));
  const char* there = static_cast<const char*>(first);
  EXPECT_GT(here > there ? here - there : there - here, 1 << 20);
}

TEST(BigStack, ARunInsideARunGetsADeepStackOfItsOwn) {
  const void* outer_frame = nullptr;
  const void* inner_frame = nullptr;
  int inner_result = 0;
  run_on_big_stack([&](size_t) {
    outer_frame = __builtin_frame_address(0);
    run_on_big_stack([&](size_t) {
      inner_frame = __builtin_frame_address(0);
      inner_result = deep(kDepth);
    });
  });
  EXPECT_EQ(inner_result, kDepth + 1);
  const char* a = static_cast<const char*>(outer_frame);
  const char* b = static_cast<const char*>(inner_frame);
  EXPECT_GT(a > b ? a - b : b - a, 1 << 20);
}

TEST(BigStack, RunsStartWithGradModeOnAndLeaveTheCallersAlone) {
  NoGradGuard caller_off;
  bool seen = false;
  run_on_big_stack([&](size_t) { seen = grad_mode_enabled(); });
  EXPECT_TRUE(seen);
  EXPECT_FALSE(grad_mode_enabled());
  {
    GradModeGuard caller_on(true);
    run_on_big_stack([](size_t) { detail::grad_mode = false; });  // and never restored
    EXPECT_TRUE(grad_mode_enabled());
  }
}

TEST(BigStack, RunsOnSeveralThreadsAtOnceAllFinish) {
  std::atomic<int> done{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 20; ++i) {
        int r = 0;
        run_on_big_stack([&](size_t) { r = deep(200); });
        if (r == 201) ++done;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(done.load(), 80);
}

}  // namespace
}  // namespace d2s
