//! Headless Chromium driven through chromedriver's W3C WebDriver API. WebDriver is HTTP with
//! JSON bodies on loopback, so a few lines of HTTP/1.1 over a `TcpStream` are the whole
//! client. Chromium and chromedriver are Debian's `chromium` and `chromium-driver`; without
//! them the test fails and says what to install (it never skips).

#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// How long a page may take to show what a test waits for.
const PATIENCE: Duration = Duration::from_secs(60);
/// The W3C element reference key.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

pub struct Browser {
    driver: Child,
    port: u16,
    session: String,
    _profile: tempfile::TempDir,
}

impl Browser {
    /// Starts chromedriver and a headless Chromium with a fresh profile that accepts the
    /// plane's self-signed certificate.
    pub fn start() -> Browser {
        for (path, package) in [(CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")] {
            assert!(
                Path::new(path).exists(),
                "{path} is missing: the dashboard's browser tests need Debian's `{package}` package \
                 (apt-get install -y chromium chromium-driver; .ci/run installs it)"
            );
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let driver = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let profile = tempfile::tempdir().unwrap();
        let mut browser = Browser { driver, port, session: String::new(), _profile: profile };
        let deadline = Instant::now() + Duration::from_secs(20);
        while browser.http("GET", "/status", None).map(|v| v["value"]["ready"] != true).unwrap_or(true) {
            assert!(Instant::now() < deadline, "chromedriver did not become ready on port {port}");
            std::thread::sleep(Duration::from_millis(100));
        }
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--window-size=1280,1000",
        ]
        .iter()
        .map(|a| a.to_string())
        .chain([format!("--user-data-dir={}", browser._profile.path().display())])
        .collect::<Vec<_>>();
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "acceptInsecureCerts": true,
            "goog:chromeOptions": {"binary": CHROMIUM, "args": args},
        }}});
        let created = browser.http("POST", "/session", Some(&caps)).expect("chromedriver answers");
        browser.session = created["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("chromedriver did not start Chromium: {created}"))
            .to_string();
        browser
    }

    /// One WebDriver call; `Err` with the body when the driver reports an error.
    fn http(&self, method: &str, path: &str, body: Option<&Value>) -> Result<Value, Value> {
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).map_err(|e| json!(e.to_string()))?;
        stream.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.port,
            body.len()
        );
        stream.write_all(request.as_bytes()).map_err(|e| json!(e.to_string()))?;
        // chromedriver says `Connection: close` but keeps the socket open: the answer ends
        // where its Content-Length (or last chunk) says, not at end of stream.
        let mut raw = Vec::new();
        let mut buf = [0u8; 64 * 1024];
        let (head, payload) = loop {
            let n = stream.read(&mut buf).map_err(|e| json!(e.to_string()))?;
            raw.extend_from_slice(&buf[..n]);
            if let Some(split) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&raw[..split]).to_ascii_lowercase();
                let rest = &raw[split + 4..];
                let length = head
                    .lines()
                    .find_map(|l| l.strip_prefix("content-length:"))
                    .and_then(|v| v.trim().parse::<usize>().ok());
                let complete = match length {
                    Some(len) => rest.len() >= len,
                    None => n == 0 || rest.ends_with(b"0\r\n\r\n"),
                };
                if complete {
                    let body = match length {
                        Some(len) => rest[..len].to_vec(),
                        None => dechunk(rest),
                    };
                    break (head, body);
                }
            }
            if n == 0 {
                return Err(json!(String::from_utf8_lossy(&raw)));
            }
        };
        let value: Value = serde_json::from_slice(&payload).map_err(|_| json!(String::from_utf8_lossy(&payload)))?;
        let ok = head.starts_with("http/1.1 2");
        if ok { Ok(value) } else { Err(value) }
    }

    fn call(&self, method: &str, path: &str, body: Value) -> Value {
        let path = format!("/session/{}{path}", self.session);
        let body = if method == "GET" || method == "DELETE" { None } else { Some(&body) };
        match self.http(method, &path, body) {
            Ok(v) => v["value"].clone(),
            Err(e) => panic!("WebDriver {method} {path} failed: {e}"),
        }
    }

    pub fn goto(&self, url: &str) {
        self.call("POST", "/url", json!({ "url": url }));
    }

    /// Runs a script in the page and returns its result. (WebDriver's scripts are not the
    /// page's: the page's CSP does not apply to them.)
    pub fn script(&self, script: &str, args: Value) -> Value {
        self.call("POST", "/execute/sync", json!({ "script": script, "args": args }))
    }

    /// The text of the first element matching `css`, if any.
    pub fn text(&self, css: &str) -> Option<String> {
        self.script("const e = document.querySelector(arguments[0]); return e ? e.innerText : null;", json!([css]))
            .as_str()
            .map(str::to_string)
    }

    /// Polls `check` until it returns a value, failing with `what`, the last observation and a
    /// screenshot (`failure-<what>.png` in the temp dir) when the page never gets there.
    pub fn wait<T>(&self, what: &str, mut check: impl FnMut(&Browser) -> Result<T, String>) -> T {
        let start = Instant::now();
        loop {
            match check(self) {
                Ok(v) => return v,
                Err(last) if start.elapsed() > PATIENCE => {
                    let body = self.text("body").unwrap_or_default();
                    panic!("{what}: not seen in the page; last: {last}\npage text:\n{body}");
                }
                Err(_) => std::thread::sleep(Duration::from_millis(150)),
            }
        }
    }

    /// Waits for an element whose text contains `needle`.
    pub fn wait_text(&self, css: &str, needle: &str) -> String {
        self.wait(&format!("{css} containing {needle:?}"), |b| match b.text(css) {
            Some(t) if t.contains(needle) => Ok(t),
            other => Err(format!("{other:?}")),
        })
    }

    fn element(&self, css: &str) -> String {
        let found = self.wait(&format!("element {css}"), |b| {
            let path = format!("/session/{}/element", b.session);
            b.http("POST", &path, Some(&json!({"using": "css selector", "value": css}))).map_err(|e| e.to_string())
        });
        found["value"][ELEMENT].as_str().unwrap_or_else(|| panic!("no element reference in {found}")).to_string()
    }

    /// Clicks the element matching `css`. Live views redraw when the objects they show change,
    /// so the element found may be replaced before the click lands: then it is found again.
    pub fn click(&self, css: &str) {
        self.wait(&format!("a click on {css}"), |b| {
            let id = b.element(css);
            let path = format!("/session/{}/element/{id}/click", b.session);
            match b.http("POST", &path, Some(&json!({}))) {
                Ok(_) => Ok(()),
                Err(e) if e["value"]["error"] == "stale element reference" => Err(e.to_string()),
                Err(e) => panic!("WebDriver click on {css} failed: {e}"),
            }
        });
    }

    /// Replaces an input's or textarea's content by typing `text`, as a user would.
    pub fn type_into(&self, css: &str, text: &str) {
        let id = self.element(css);
        self.call("POST", &format!("/element/{id}/clear"), json!({}));
        self.call("POST", &format!("/element/{id}/value"), json!({ "text": text }));
    }

    /// A PNG of the viewport, written to `path`.
    pub fn screenshot(&self, path: &Path) {
        use base64::Engine as _;
        let data = self.call("GET", "/screenshot", Value::Null);
        let png = base64::engine::general_purpose::STANDARD.decode(data.as_str().expect("base64 PNG")).unwrap();
        assert!(png.starts_with(b"\x89PNG"), "the screenshot is a PNG");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, png).unwrap();
    }
}

/// The body of a chunked HTTP/1.1 answer.
fn dechunk(mut rest: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(line_end) = rest.windows(2).position(|w| w == b"\r\n") {
        let size = std::str::from_utf8(&rest[..line_end]).unwrap_or("0");
        let n = usize::from_str_radix(size.split(';').next().unwrap_or("0").trim(), 16).unwrap_or(0);
        let data = &rest[line_end + 2..];
        if n == 0 || data.len() < n {
            break;
        }
        out.extend_from_slice(&data[..n]);
        rest = data[n..].strip_prefix(b"\r\n").unwrap_or(&data[n..]);
    }
    out
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = self.http("DELETE", &format!("/session/{}", self.session), None);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}
