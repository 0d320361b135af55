// One helper thread that runs one call at a time for its owner: start()
// hands it a call, wait() blocks until that call has returned (and rethrows
// what it threw). A pipelined self-play worker keeps one per batch in
// flight, so the device evaluates one batch while the worker's own thread
// searches the games of the other.
#pragma once
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <utility>
#include <thread>

namespace mushroom::selfplay {

class AsyncCall {
 public:
  AsyncCall() : thread_([this] { loop(); }) {}
  ~AsyncCall() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      quit_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  AsyncCall(const AsyncCall&) = delete;
  AsyncCall& operator=(const AsyncCall&) = delete;

  // Starts call on the helper thread; the previous call must have been waited for.
  void start(std::function<void()> call) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      call_ = std::move(call);
      busy_ = true;
    }
    wake_.notify_all();
  }

  void wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return !busy_; });
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  }

 private:
  void loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (true) {
      wake_.wait(lock, [this] { return quit_ || (busy_ && call_); });
      if (quit_) return;
      std::function<void()> call = std::move(call_);
      call_ = nullptr;
      lock.unlock();
      std::exception_ptr error;
      try {
        call();
      } catch (...) {
        error = std::current_exception();
      }
      lock.lock();
      error_ = error;
      busy_ = false;
      done_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::function<void()> call_;
  bool busy_ = false, quit_ = false;
  std::exception_ptr error_;
  std::thread thread_;  // last: started once the members above exist
};

}  // namespace mushroom::selfplay
