//! A minimal Chrome DevTools Protocol client over a hand-written WebSocket
//! (std only): enough to load pages in headless Chromium, collect console
//! errors, failed loads and network requests, evaluate JavaScript and take
//! screenshots.
//!
//! Also used by the end-to-end report test of `yardstick-tests`.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// The Chromium binary, from `YARDSTICK_CHROMIUM` or the usual names.
pub fn find_chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("YARDSTICK_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    for name in [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ] {
        let found = Command::new(name)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if found {
            return Some(PathBuf::from(name));
        }
    }
    None
}

/// A headless browser with one page (a CDP session on one target).
pub struct Browser {
    child: Child,
    ws: TcpStream,
    next_id: u64,
    session: String,
    /// Events received and not yet looked at.
    events: Vec<Value>,
}

/// What loading one page showed.
#[derive(Debug, Default)]
pub struct PageLoad {
    /// Console errors, uncaught exceptions and failed loads.
    pub errors: Vec<String>,
    /// URLs the page requested.
    pub requests: Vec<String>,
}

impl Browser {
    /// Starts `chromium` headless with a fresh profile in `profile` and
    /// opens a 1280-pixel-wide page.
    pub fn start(chromium: &Path, profile: &Path) -> Browser {
        let mut child = Command::new(chromium)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                "--remote-debugging-port=0",
                "--remote-allow-origins=*",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start chromium");
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut url = None;
        let mut seen = String::new();
        let mut line = String::new();
        while url.is_none() && stderr.read_line(&mut line).unwrap_or(0) > 0 {
            if let Some(at) = line.find("ws://") {
                url = Some(line[at..].trim().to_owned());
            }
            seen.push_str(&line);
            line.clear();
        }
        let url = url.unwrap_or_else(|| panic!("chromium printed no DevTools address:\n{seen}"));
        // Keep draining stderr so chromium never blocks on it.
        std::thread::spawn(move || {
            let mut sink = Vec::new();
            let _ = stderr.read_to_end(&mut sink);
        });
        let ws = connect(&url);
        let mut b = Browser {
            child,
            ws,
            next_id: 0,
            session: String::new(),
            events: Vec::new(),
        };
        let target = b.call("Target.createTarget", json!({"url": "about:blank"}));
        let target_id = target["targetId"].as_str().unwrap().to_owned();
        let attached = b.call(
            "Target.attachToTarget",
            json!({"targetId": target_id, "flatten": true}),
        );
        b.session = attached["sessionId"].as_str().unwrap().to_owned();
        for domain in [
            "Page.enable",
            "Runtime.enable",
            "Log.enable",
            "Network.enable",
        ] {
            b.call_page(domain, json!({}));
        }
        b.resize(1280, 900);
        b
    }

    /// Sets the viewport.
    pub fn resize(&mut self, width: u32, height: u32) {
        self.call_page(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}),
        );
    }

    /// Loads `url` and waits for its load event.
    pub fn load(&mut self, url: &str) -> PageLoad {
        self.events.clear();
        self.call_page("Page.navigate", json!({"url": url}));
        self.wait_for("Page.loadEventFired", Duration::from_secs(30));
        // Late console messages arrive right after the load event.
        let _ = self.call_page("Runtime.evaluate", json!({"expression": "1"}));
        let mut load = PageLoad::default();
        for e in std::mem::take(&mut self.events) {
            let p = &e["params"];
            match e["method"].as_str().unwrap_or("") {
                "Runtime.exceptionThrown" => load
                    .errors
                    .push(format!("exception: {}", p["exceptionDetails"])),
                "Runtime.consoleAPICalled" if p["type"] == "error" => {
                    load.errors.push(format!("console.error: {}", p["args"]));
                }
                "Log.entryAdded" if p["entry"]["level"] == "error" => load
                    .errors
                    .push(format!("log: {} {}", p["entry"]["text"], p["entry"]["url"])),
                "Network.loadingFailed" => {
                    load.errors.push(format!("failed load: {}", p["errorText"]))
                }
                "Network.requestWillBeSent" => load
                    .requests
                    .push(p["request"]["url"].as_str().unwrap_or("").to_owned()),
                _ => {}
            }
        }
        load
    }

    /// Evaluates `expression` in the page and returns its value.
    pub fn eval(&mut self, expression: &str) -> Value {
        let r = self.call_page(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
        );
        if let Some(ex) = r.get("exceptionDetails") {
            panic!("{expression}: {ex}");
        }
        r["result"]["value"].clone()
    }

    /// A PNG of the whole page (up to 8000 pixels high), 1280 wide.
    pub fn screenshot(&mut self) -> Vec<u8> {
        let h = self
            .eval("document.documentElement.scrollHeight")
            .as_f64()
            .unwrap_or(900.0)
            .clamp(300.0, 8000.0) as u32;
        self.resize(1280, h);
        let shot = self.call_page("Page.captureScreenshot", json!({"format": "png"}));
        self.resize(1280, 900);
        base64_decode(shot["data"].as_str().unwrap())
    }

    fn call_page(&mut self, method: &str, params: Value) -> Value {
        let session = self.session.clone();
        self.call_in(method, params, Some(&session))
    }

    fn call(&mut self, method: &str, params: Value) -> Value {
        self.call_in(method, params, None)
    }

    fn call_in(&mut self, method: &str, params: Value, session: Option<&str>) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if let Some(s) = session {
            msg["sessionId"] = json!(s);
        }
        send(&mut self.ws, &msg.to_string());
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            assert!(Instant::now() < deadline, "no answer to {method}");
            let v: Value = serde_json::from_str(&receive(&mut self.ws)).unwrap();
            if v["id"] == id {
                if let Some(e) = v.get("error") {
                    panic!("{method}: {e}");
                }
                return v["result"].clone();
            }
            if v.get("method").is_some() {
                self.events.push(v);
            }
        }
    }

    fn wait_for(&mut self, method: &str, timeout: Duration) {
        let deadline = Instant::now() + timeout;
        loop {
            if self.events.iter().any(|e| e["method"] == method) {
                return;
            }
            assert!(Instant::now() < deadline, "timed out waiting for {method}");
            let v: Value = serde_json::from_str(&receive(&mut self.ws)).unwrap();
            if v.get("method").is_some() {
                self.events.push(v);
            }
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Opens the WebSocket at `url` (`ws://host:port/path`).
fn connect(url: &str) -> TcpStream {
    let rest = url.strip_prefix("ws://").expect("ws:// url");
    let (host, path) = rest.split_once('/').expect("a path");
    let mut s = TcpStream::connect(host).expect("connect to chromium");
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    write!(
        s,
        "GET /{path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: eWFyZHN0aWNrLXJlcG9ydA==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    .unwrap();
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        s.read_exact(&mut byte).expect("handshake");
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head);
    assert!(
        head.starts_with("HTTP/1.1 101"),
        "handshake refused: {head}"
    );
    s
}

/// Sends one masked text frame.
fn send(s: &mut TcpStream, text: &str) {
    let payload = text.as_bytes();
    let mut frame = vec![0x81u8];
    let n = payload.len();
    if n < 126 {
        frame.push(0x80 | n as u8);
    } else if n < 65536 {
        frame.push(0x80 | 126);
        frame.extend_from_slice(&(n as u16).to_be_bytes());
    } else {
        frame.push(0x80 | 127);
        frame.extend_from_slice(&(n as u64).to_be_bytes());
    }
    let mask = [0x5a, 0x17, 0xc3, 0x8e];
    frame.extend_from_slice(&mask);
    frame.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    s.write_all(&frame).unwrap();
}

/// Receives one text message (joining continuation frames, answering
/// pings).
fn receive(s: &mut TcpStream) -> String {
    let mut message = Vec::new();
    loop {
        let mut h = [0u8; 2];
        s.read_exact(&mut h).expect("read frame");
        let fin = h[0] & 0x80 != 0;
        let opcode = h[0] & 0x0f;
        let mut len = u64::from(h[1] & 0x7f);
        if len == 126 {
            let mut b = [0u8; 2];
            s.read_exact(&mut b).unwrap();
            len = u64::from(u16::from_be_bytes(b));
        } else if len == 127 {
            let mut b = [0u8; 8];
            s.read_exact(&mut b).unwrap();
            len = u64::from_be_bytes(b);
        }
        let mut payload = vec![0u8; len as usize];
        s.read_exact(&mut payload).unwrap();
        match opcode {
            0x8 => panic!("chromium closed the connection"),
            0x9 => {
                // Pong with the same payload (masked, as a client must).
                let mut frame = vec![0x8a, 0x80 | payload.len() as u8, 0, 0, 0, 0];
                frame.extend_from_slice(&payload);
                s.write_all(&frame).unwrap();
                continue;
            }
            0xA => continue,
            _ => message.extend_from_slice(&payload),
        }
        if fin {
            return String::from_utf8(message).expect("utf-8 message");
        }
    }
}

fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let bytes: Vec<u8> = text
        .bytes()
        .filter(|&c| c != b'=' && !c.is_ascii_whitespace())
        .collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let v: Vec<u32> = chunk.iter().map(|&c| u32::from(value(c))).collect();
        let n = v
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, &x)| acc | (x << (18 - 6 * i)));
        out.push((n >> 16) as u8);
        if v.len() > 2 {
            out.push((n >> 8) as u8);
        }
        if v.len() > 3 {
            out.push(n as u8);
        }
    }
    out
}

/// `file://` URL of `path`, each byte outside the unreserved set encoded.
pub fn file_url(path: &Path) -> String {
    let mut url = String::from("file://");
    for b in path.to_str().unwrap().bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~/".contains(&b) {
            url.push(b as char);
        } else {
            url.push_str(&format!("%{b:02X}"));
        }
    }
    url
}
