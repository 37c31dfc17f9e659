//! `to_async` on each executor, with a future that needs that executor's
//! runtime: Tokio's timer and `tokio::spawn` panic outside a Tokio runtime,
//! `async_std::task::current()` panics outside an async-std task, smol's
//! timer, spawned task and TCP round trip run on smol's reactor. Each
//! benchmark runs in-process with a tiny plan; the test checks that every
//! iteration's future completed and that the result was saved.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use criterion::async_executor::{AsyncStdExecutor, FuturesExecutor, SmolExecutor};
use criterion::{Bencher, Criterion};

/// One benchmark at a time: they share the process's meters.
static SERIAL: Mutex<()> = Mutex::new(());

fn home(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("yardstick-async-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Runs `bench` as benchmark `id` with a short plan; returns how many times
/// the routine's future completed.
fn run(id: &str, bench: impl FnMut(&mut Bencher, &AtomicU64)) -> u64 {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = home(id);
    let done = AtomicU64::new(0);
    let mut bench = bench;
    Criterion::default()
        .output_directory(&dir)
        .without_plots()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(20))
        .measurement_time(Duration::from_millis(100))
        .bench_function(id, |b| bench(b, &done));
    assert_saved(&dir, id);
    let _ = std::fs::remove_dir_all(&dir);
    done.load(Ordering::SeqCst)
}

fn assert_saved(dir: &Path, id: &str) {
    let estimates = dir.join(id).join("new/estimates.json");
    assert!(
        estimates.exists(),
        "{} was not written",
        estimates.display()
    );
}

#[test]
fn tokio_runs_a_future_with_a_timer_and_a_spawned_task() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    let done = run("tokio", |b, done| {
        b.to_async(&rt).iter(|| async {
            tokio::time::sleep(Duration::from_micros(1)).await;
            let v = tokio::spawn(async { 7u64 }).await.unwrap();
            done.fetch_add(v / 7, Ordering::SeqCst);
        });
    });
    assert!(done >= 10, "{done} futures completed");
}

#[test]
fn async_std_runs_the_future_as_its_task_with_a_timer_and_a_spawned_task() {
    let done = run("async_std", |b, done| {
        b.to_async(AsyncStdExecutor).iter(|| async {
            // Panics unless the future runs as an async-std task.
            let _ = async_std::task::current();
            async_std::task::sleep(Duration::from_micros(1)).await;
            let v = async_std::task::spawn(async { 7u64 }).await;
            done.fetch_add(v / 7, Ordering::SeqCst);
        });
    });
    assert!(done >= 10, "{done} futures completed");
}

#[test]
fn smol_runs_a_future_with_a_timer_a_spawned_task_and_io() {
    let done = run("smol", |b, done| {
        b.to_async(SmolExecutor).iter(|| async {
            smol::Timer::after(Duration::from_micros(1)).await;
            let v = smol::spawn(async { 7u64 }).await;
            done.fetch_add(v / 7, Ordering::SeqCst);
        });
    });
    assert!(done >= 10, "{done} futures completed");
    // I/O on smol's reactor, in the routine of `iter_custom`.
    let echoed = run("smol_io", |b, done| {
        b.to_async(SmolExecutor).iter_custom(|n| async move {
            let listener = smol::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let addr = listener.local_addr().unwrap();
            let start = std::time::Instant::now();
            for _ in 0..n {
                let (client, server) =
                    futures_join(smol::net::TcpStream::connect(addr), listener.accept()).await;
                let (mut client, (mut server, _)) = (client.unwrap(), server.unwrap());
                use smol::io::{AsyncReadExt, AsyncWriteExt};
                client.write_all(b"y").await.unwrap();
                let mut byte = [0u8];
                server.read_exact(&mut byte).await.unwrap();
                done.fetch_add(u64::from(byte[0] == b'y'), Ordering::SeqCst);
            }
            start.elapsed()
        });
    });
    assert!(echoed >= 10, "{echoed} round trips");
}

/// Both futures, concurrently (smol's `zip`).
async fn futures_join<A: std::future::Future, B: std::future::Future>(
    a: A,
    b: B,
) -> (A::Output, B::Output) {
    smol::future::zip(a, b).await
}

#[test]
fn futures_runs_a_future_woken_from_another_thread() {
    let done = run("futures", |b, done| {
        b.to_async(FuturesExecutor).iter(|| async {
            let (tx, rx) = smol::channel::bounded::<u64>(1);
            std::thread::spawn(move || tx.send_blocking(7));
            let v = rx.recv().await.unwrap();
            done.fetch_add(v / 7, Ordering::SeqCst);
        });
    });
    assert!(done >= 10, "{done} futures completed");
}
