//! Executors that [`Bencher::to_async`](crate::Bencher::to_async) runs async
//! benchmarks on, as in Criterion.rs.
//!
//! [`FuturesExecutor`], [`SmolExecutor`] and [`AsyncStdExecutor`] drive the
//! future on the calling thread with a small parking executor from the
//! standard library (smol and async-std futures are driven by their own
//! reactor threads, so any executor can poll them); Tokio futures need
//! Tokio's runtime, which the `async_tokio` feature supports.

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use std::thread::{self, Thread};

/// Runs a future to completion.
pub trait AsyncExecutor {
    /// Blocks the current thread until `future` completes.
    fn block_on<T>(&self, future: impl Future<Output = T>) -> T;
}

struct ThreadWaker(Thread);

impl Wake for ThreadWaker {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }
    fn wake_by_ref(self: &Arc<Self>) {
        self.0.unpark();
    }
}

/// Polls `future` on this thread, parking between wake-ups.
fn park_block_on<T>(future: impl Future<Output = T>) -> T {
    let mut future = pin!(future);
    let waker = Waker::from(Arc::new(ThreadWaker(thread::current())));
    let mut cx = Context::from_waker(&waker);
    loop {
        match future.as_mut().poll(&mut cx) {
            Poll::Ready(v) => return v,
            Poll::Pending => thread::park(),
        }
    }
}

/// The executor of the `futures` crate's `block_on`, as Criterion.rs's
/// `async_futures` feature.
#[derive(Debug, Clone, Copy, Default)]
pub struct FuturesExecutor;

impl AsyncExecutor for FuturesExecutor {
    fn block_on<T>(&self, future: impl Future<Output = T>) -> T {
        park_block_on(future)
    }
}

/// An executor for smol futures (Criterion.rs's `async_smol`).
#[derive(Debug, Clone, Copy, Default)]
pub struct SmolExecutor;

impl AsyncExecutor for SmolExecutor {
    fn block_on<T>(&self, future: impl Future<Output = T>) -> T {
        park_block_on(future)
    }
}

/// An executor for async-std futures (Criterion.rs's `async_std`, removed
/// in 0.8).
#[derive(Debug, Clone, Copy, Default)]
pub struct AsyncStdExecutor;

impl AsyncExecutor for AsyncStdExecutor {
    fn block_on<T>(&self, future: impl Future<Output = T>) -> T {
        park_block_on(future)
    }
}

#[cfg(feature = "async_tokio")]
impl AsyncExecutor for tokio::runtime::Runtime {
    fn block_on<T>(&self, future: impl Future<Output = T>) -> T {
        self.block_on(future)
    }
}

#[cfg(feature = "async_tokio")]
impl AsyncExecutor for &tokio::runtime::Runtime {
    fn block_on<T>(&self, future: impl Future<Output = T>) -> T {
        (*self).block_on(future)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_future_woken_from_another_thread_completes() {
        let (tx, rx) = std::sync::mpsc::channel::<Waker>();
        let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = done.clone();
        let helper = thread::spawn(move || {
            let waker = rx.recv().unwrap();
            flag.store(true, std::sync::atomic::Ordering::SeqCst);
            waker.wake();
        });
        let mut sent = false;
        let value = FuturesExecutor.block_on(std::future::poll_fn(|cx| {
            if done.load(std::sync::atomic::Ordering::SeqCst) {
                Poll::Ready(42)
            } else {
                if !sent {
                    tx.send(cx.waker().clone()).unwrap();
                    sent = true;
                }
                Poll::Pending
            }
        }));
        assert_eq!(value, 42);
        helper.join().unwrap();
    }
}
