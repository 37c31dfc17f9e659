//! Executors that [`Bencher::to_async`](crate::Bencher::to_async) runs async
//! benchmarks on, as in Criterion.rs: each is the runtime its feature names,
//! so a future that needs that runtime (its timers, its spawned tasks, its
//! I/O reactor) runs as it does in the program under test.
//!
//! | feature | executor | runs the future with |
//! | --- | --- | --- |
//! | (none) or `async_futures` | [`FuturesExecutor`] | `futures::executor::block_on` (without the feature: the same thread-parking loop, from `std`) |
//! | `async_smol` | `SmolExecutor` | `smol::block_on` |
//! | `async_std` | `AsyncStdExecutor` | `async_std::task::block_on` |
//! | `async_tokio` | `tokio::runtime::Runtime`, `&Runtime` | `Runtime::block_on` |
//!
//! None of them is in the default build.

use std::future::Future;
#[cfg(any(test, not(feature = "async_futures")))]
use std::{
    pin::pin,
    sync::Arc,
    task::{Context, Poll, Wake, Waker},
    thread::{self, Thread},
};

/// Runs a future to completion.
pub trait AsyncExecutor {
    /// Blocks the current thread until `future` completes.
    fn block_on<T>(&self, future: impl Future<Output = T>) -> T;
}

#[cfg(any(test, not(feature = "async_futures")))]
struct ThreadWaker(Thread);

#[cfg(any(test, not(feature = "async_futures")))]
impl Wake for ThreadWaker {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }
    fn wake_by_ref(self: &Arc<Self>) {
        self.0.unpark();
    }
}

/// Polls `future` on this thread, parking between wake-ups.
#[cfg(any(test, not(feature = "async_futures")))]
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

/// The executor of the `futures` crate's `block_on` (Criterion.rs's
/// `async_futures` feature). Without the feature it is a thread-parking loop
/// from `std`, which is what `futures::executor::block_on` is, so that
/// benchmarks written for it build without the dependency.
#[derive(Debug, Clone, Copy, Default)]
pub struct FuturesExecutor;

impl AsyncExecutor for FuturesExecutor {
    #[cfg(feature = "async_futures")]
    fn block_on<T>(&self, future: impl Future<Output = T>) -> T {
        futures_executor::block_on(future)
    }
    #[cfg(not(feature = "async_futures"))]
    fn block_on<T>(&self, future: impl Future<Output = T>) -> T {
        park_block_on(future)
    }
}

/// smol's `block_on` (Criterion.rs's `async_smol`): the calling thread
/// drives smol's reactor while it waits.
#[cfg(feature = "async_smol")]
#[derive(Debug, Clone, Copy, Default)]
pub struct SmolExecutor;

#[cfg(feature = "async_smol")]
impl AsyncExecutor for SmolExecutor {
    fn block_on<T>(&self, future: impl Future<Output = T>) -> T {
        smol::block_on(future)
    }
}

/// async-std's `task::block_on` (Criterion.rs's `async_std`, removed in
/// 0.8): the future runs as an async-std task.
#[cfg(feature = "async_std")]
#[derive(Debug, Clone, Copy, Default)]
pub struct AsyncStdExecutor;

#[cfg(feature = "async_std")]
impl AsyncExecutor for AsyncStdExecutor {
    fn block_on<T>(&self, future: impl Future<Output = T>) -> T {
        async_std::task::block_on(future)
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
        let value = park_block_on(std::future::poll_fn(|cx| {
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
