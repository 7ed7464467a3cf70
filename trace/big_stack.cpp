// The caller's own thread switches onto a 512 MB stack, mapped once, runs the job there
// and switches back (makecontext and setcontext, as fiber libraries do). A thread per run
// cost a third of tracing a 100-statement program on this project's machines: creating
// it, waking it and the caller, and a fresh malloc cache that each run warmed up again.
// A long-lived worker thread saved the creation but not the two wake-ups.
//
// The job runs as if on a fresh thread: grad mode (thread-local, as in PyTorch) is on
// during it and restored after. A job started while the stack is in use (a run inside a
// run, or runs on two threads at once) gets a thread and stack of its own.
#include "trace/big_stack.h"

#include <pthread.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <atomic>
#include <exception>
#include <new>

#include "core/base/error.h"
#include "core/tensor/grad_mode.h"

// AddressSanitizer keeps its own picture of the current stack; a switch it is not told
// of makes it report false errors when an exception unwinds on the other stack.
#if defined(__SANITIZE_ADDRESS__)
#define D2S_ASAN_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define D2S_ASAN_FIBERS 1
#endif
#endif
#ifdef D2S_ASAN_FIBERS
#include <sanitizer/common_interface_defs.h>
#endif

namespace d2s {
namespace {

constexpr size_t kStackSize = size_t{512} << 20;
constexpr size_t kStackMargin = size_t{16} << 20;
constexpr size_t kFallbackBudget = size_t{2} << 20;
// What a deep recursion touched below the top of the shared stack goes back to the
// system after each job, so one deep run does not keep its memory for the process.
constexpr size_t kKeepResident = size_t{8} << 20;

struct StackJob {
  const std::function<void(size_t)>* fn;
  size_t budget;
  std::exception_ptr error;
};

// Runs one job with grad mode on, as a fresh thread starts; everything leaves as a
// d2s::Error, the only kind the CLI prints.
void run_job(StackJob& job) {
  GradModeGuard grad(true);
  try {
    (*job.fn)(job.budget);
  } catch (const Error&) {
    job.error = std::current_exception();
  } catch (const std::bad_alloc&) {
    job.error = std::make_exception_ptr(Error("out of memory while running the program"));
  } catch (const std::exception& e) {
    job.error = std::make_exception_ptr(Error(std::string("internal error: ") + e.what()));
  } catch (...) {
    // Nothing may unwind past the job: on the shared stack there is no frame to go to.
    job.error = std::make_exception_ptr(Error("internal error: an unknown exception"));
  }
}

// A thread of its own with a stack of its own, joined at once.
bool run_on_new_thread(StackJob& job) {
  pthread_attr_t attr;
  pthread_t thread;
  auto body = [](void* p) -> void* {
    run_job(*static_cast<StackJob*>(p));
    return nullptr;
  };
  const bool started = pthread_attr_init(&attr) == 0 &&
                       pthread_attr_setstacksize(&attr, kStackSize) == 0 &&
                       pthread_create(&thread, &attr, body, &job) == 0;
  pthread_attr_destroy(&attr);
  if (started) pthread_join(thread, nullptr);
  return started;
}

// One switch onto the shared stack and back. makecontext passes only ints to the entry
// function, so the switch's state travels in a thread-local pointer.
struct Switch {
  StackJob* job;
  ucontext_t caller;
  ucontext_t callee;
#ifdef D2S_ASAN_FIBERS
  void* fake_stack = nullptr;
  const void* caller_bottom = nullptr;
  size_t caller_size = 0;
#endif
};
thread_local Switch* t_switch = nullptr;

void on_shared_stack() {
  Switch& s = *t_switch;
#ifdef D2S_ASAN_FIBERS
  __sanitizer_finish_switch_fiber(nullptr, &s.caller_bottom, &s.caller_size);
#endif
  run_job(*s.job);
#ifdef D2S_ASAN_FIBERS
  // Null: this stack's frames are done with, as a returning fiber's are.
  __sanitizer_start_switch_fiber(nullptr, s.caller_bottom, s.caller_size);
#endif
  setcontext(&s.caller);
}

class SharedStack {
 public:
  // The process's stack, mapped on first use. Never unmapped: the next run reuses it.
  static SharedStack& get() {
    static SharedStack stack;
    return stack;
  }

  // Runs the job on this stack and returns true; false, without running it, when the
  // stack is in use or could not be mapped.
  bool try_run(StackJob& job) {
    bool expected = false;
    if (!base_ || !taken_.compare_exchange_strong(expected, true)) return false;
    const bool ran = switch_and_run(job);
    taken_.store(false);
    return ran;
  }

 private:
  // getcontext/setcontext both ways rather than swapcontext, which AddressSanitizer
  // warns about on stderr (and the CLI's stderr is its contract).
  bool switch_and_run(StackJob& job) {
    Switch s{&job, {}, {}};
    if (getcontext(&s.callee) != 0) return false;
    s.callee.uc_stack.ss_sp = base_;
    s.callee.uc_stack.ss_size = kStackSize;
    s.callee.uc_link = nullptr;
    makecontext(&s.callee, on_shared_stack, 0);
    t_switch = &s;  // never nested: the stack is taken until this switch is over
    volatile bool ran = false;
    // Returns twice: now, and when the job's end resumes s.caller (with `ran` set).
    if (getcontext(&s.caller) == 0 && !ran) {
      ran = true;
#ifdef D2S_ASAN_FIBERS
      __sanitizer_start_switch_fiber(&s.fake_stack, base_, kStackSize);
#endif
      if (setcontext(&s.callee) != 0) ran = false;  // it returns only when it failed
    }
#ifdef D2S_ASAN_FIBERS
    if (ran) __sanitizer_finish_switch_fiber(s.fake_stack, nullptr, nullptr);
#endif
    t_switch = nullptr;
    if (ran) madvise(base_, kStackSize - kKeepResident, MADV_DONTNEED);
    return ran;
  }

  SharedStack() {
    void* p = mmap(nullptr, kStackSize, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (p == MAP_FAILED) return;
    // The lowest page is the guard a thread's stack has: an overflow faults.
    if (mprotect(p, static_cast<size_t>(sysconf(_SC_PAGESIZE)), PROT_NONE) != 0) {
      munmap(p, kStackSize);
      return;
    }
    base_ = p;
  }

  void* base_ = nullptr;
  std::atomic<bool> taken_{false};
};

}  // namespace

void run_on_big_stack(const std::function<void(size_t)>& fn) {
  StackJob job{&fn, kStackSize - kStackMargin, nullptr};
  if (!SharedStack::get().try_run(job) && !run_on_new_thread(job)) {
    // No stack to be had: run here, with a budget any default stack has room for.
    job.budget = kFallbackBudget;
    run_job(job);
  }
  if (job.error) std::rethrow_exception(job.error);
}

}  // namespace d2s
