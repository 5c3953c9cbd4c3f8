//! `friction serve` against a hostile web page and against overload: a
//! raw HTTP/1.1 client on loopback sends what a page of another site (or a
//! re-pointed DNS name) would send, fills the job slots, trickles headers,
//! and loads the `friction serve` binary with concurrent clients while its
//! peak memory is read from /proc.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

mod common;
use common::{friction, BASE};

use friction_serve::ServeOptions;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// A server in this process with limits `opts`; its address.
fn server(opts: ServeOptions) -> String {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap().to_string();
    std::thread::spawn(move || friction_serve::serve_blocking(l, opts).unwrap());
    addr
}

fn default_server() -> &'static str {
    static ADDR: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    ADDR.get_or_init(|| server(Default::default()))
}

/// An answer: status, headers (lower-case names), body.
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// The body as JSON (panics with the body when it is not).
    fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {} {}", self.status, self.body))
    }

    /// The API's error message (panics unless the body is `{"error": TEXT}`).
    fn error(&self) -> String {
        let v = self.json();
        assert_eq!(self.header("content-type"), Some("application/json"), "{}", self.body);
        v["error"].as_str().unwrap_or_else(|| panic!("no error in {}", self.body)).to_string()
    }
}

/// One request, `head` the header lines after the request line (each with
/// its `\r\n`; no Host is added), `body` sent with its Content-Length.
fn raw(addr: &str, method: &str, path: &str, head: &str, body: &[u8]) -> Answer {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let req = format!(
        "{method} {path} HTTP/1.1\r\n{head}Connection: close\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    // the server may answer (413) and close before the body is sent
    let _ = s.write_all(req.as_bytes()).and_then(|()| s.write_all(body));
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let headers = head
        .lines()
        .skip(1)
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Answer { status, headers, body: body.to_string() }
}

/// A request with `Host: addr` and `extra` header lines.
fn request(addr: &str, method: &str, path: &str, extra: &str, body: &str) -> Answer {
    raw(addr, method, path, &format!("Host: {addr}\r\n{extra}"), body.as_bytes())
}

/// A small scenario (BASE: 501 rows of a driven Dahl contact).
fn small() -> String {
    BASE.to_string()
}

/// A LuGre stick-slip run long enough to be caught running.
fn long_run() -> String {
    std::fs::read_to_string(root().join("examples/lugre_stick_slip.toml"))
        .unwrap()
        .replace("t_end = 20.0", "t_end = 100000.0")
        .replace("output_dt = 0.005", "output_dt = 1.0")
}

/// Wait (at most 30 s) until the run `id` on `addr` has started.
fn wait_running(addr: &str, id: &str) {
    for _ in 0..600 {
        let a = request(addr, "GET", &format!("/api/progress/{id}"), "", "");
        if a.status == 200 && a.json()["t"].as_f64().unwrap_or(0.0) > 0.0 {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("run {id} never started");
}

#[test]
fn a_cross_origin_post_gets_403_and_runs_nothing() {
    let addr = default_server();
    let toml = "Content-Type: text/plain\r\n";
    for extra in [
        "Origin: http://evil.example\r\n",
        "Origin: null\r\n",
        "Origin: https://evil.example\r\n",
        "Referer: http://evil.example/attack.html\r\n",
        // another port of this machine is another site
        "Origin: http://127.0.0.1:1\r\n",
    ] {
        let a = request(addr, "POST", "/api/run?id=from-evil", &format!("{toml}{extra}"), &small());
        assert_eq!(a.status, 403, "{extra}: {}", a.body);
        assert!(a.error().contains("another site"), "{}", a.body);
        // nothing was started under that id
        assert_eq!(request(addr, "GET", "/api/progress/from-evil", "", "").status, 404);
    }
    // a cross-origin cancel of another client's run is refused, and the run goes on
    let text = long_run();
    let a2 = addr.to_string();
    let runner = std::thread::spawn(move || request(&a2, "POST", "/api/run?id=victim", "", &text));
    wait_running(addr, "victim");
    let a = request(addr, "POST", "/api/cancel/victim", "Origin: http://evil.example\r\n", "");
    assert_eq!(a.status, 403, "{}", a.body);
    let p = request(addr, "GET", "/api/progress/victim", "", "").json();
    assert_eq!(p["finished"], false, "{p}");
    // the page's own cancel (same origin) works
    let a = request(addr, "POST", "/api/cancel/victim", &format!("Origin: http://{addr}\r\n"), "");
    assert_eq!((a.status, a.json()["cancelled"].clone()), (200, serde_json::json!(true)), "{}", a.body);
    let done = runner.join().unwrap();
    assert_eq!(done.status, 200, "{}", done.body);
    assert_eq!(done.json()["summary"]["error"], "cancelled by the user");
}

#[test]
fn a_same_origin_or_origin_less_post_is_served() {
    let addr = default_server();
    let port = addr.rsplit(':').next().unwrap();
    for extra in [
        String::new(),
        format!("Origin: http://{addr}\r\n"),
        format!("Origin: http://localhost:{port}\r\n"),
        format!("Referer: http://{addr}/\r\n"),
    ] {
        let a = request(addr, "POST", "/api/run", &extra, &small());
        assert_eq!(a.status, 200, "{extra}: {}", a.body);
        assert_eq!(a.json()["columns"]["t"].as_array().unwrap().len(), 501);
    }
    // reading is never refused for its Origin (the browser keeps the answer from other sites)
    let a = request(addr, "GET", "/api/models", "Origin: http://evil.example\r\n", "");
    assert_eq!(a.status, 200);
}

#[test]
fn a_foreign_host_gets_403_on_every_route() {
    let addr = default_server();
    let port = addr.rsplit(':').next().unwrap();
    let foreign = [
        "evil.example".to_string(),
        format!("evil.example:{port}"),
        format!("127.0.0.1.nip.io:{port}"),
        "127.0.0.1:1".into(),
    ];
    for host in &foreign {
        for (method, path, body) in [
            ("GET", "/", ""),
            ("GET", "/api/models", ""),
            ("GET", "/assets/app.js", ""),
            ("POST", "/api/run", BASE),
        ] {
            let a = raw(addr, method, path, &format!("Host: {host}\r\n"), body.as_bytes());
            assert_eq!(a.status, 403, "{host} {method} {path}: {}", a.body);
            assert!(a.error().contains(&format!("Host `{host}`")), "{}", a.body);
            assert!(!a.body.contains("lugre") && !a.body.contains("<html"), "{}", a.body);
        }
    }
    // no Host at all (HTTP/1.0)
    let mut s = TcpStream::connect(addr).unwrap();
    s.write_all(b"GET /api/models HTTP/1.0\r\n\r\n").unwrap();
    let mut out = String::new();
    let _ = s.read_to_string(&mut out);
    assert!(out.starts_with("HTTP/1.0 403") || out.starts_with("HTTP/1.1 403"), "{out}");
    // the server's own names
    for host in [addr.to_string(), format!("localhost:{port}"), format!("[::1]:{port}")] {
        let a = raw(addr, "GET", "/api/models", &format!("Host: {host}\r\n"), b"");
        assert_eq!(a.status, 200, "{host}: {}", a.body);
    }
}

#[test]
fn run_ids_are_random_not_sequential() {
    let addr = default_server();
    let ids: Vec<String> = (0..3)
        .map(|_| {
            let a = request(addr, "POST", "/api/run", "", &small());
            assert_eq!(a.status, 200, "{}", a.body);
            a.json()["id"].as_str().unwrap().to_string()
        })
        .collect();
    for id in &ids {
        assert_eq!(id.len(), 32, "{id}");
        assert!(id.chars().all(|c| c.is_ascii_hexdigit()), "{id}");
        assert!(!id.starts_with("run-"), "{id}");
    }
    assert!(ids[0] != ids[1] && ids[1] != ids[2] && ids[0] != ids[2], "{ids:?}");
    // neither shares a long prefix with the next (a counter would)
    assert!(ids.windows(2).all(|w| w[0][..8] != w[1][..8]), "{ids:?}");
}

#[test]
fn a_full_server_answers_503_with_retry_after_and_serves_again_when_free() {
    let addr = server(ServeOptions { max_jobs: 1, max_queued: 0, ..Default::default() });
    let text = long_run();
    let a2 = addr.clone();
    let runner = std::thread::spawn(move || request(&a2, "POST", "/api/run?id=hold", "", &text));
    wait_running(&addr, "hold");
    let a = request(&addr, "POST", "/api/run", "", &small());
    assert_eq!(a.status, 503, "{}", a.body);
    assert_eq!(a.header("retry-after"), Some("2"));
    assert!(a.error().contains("busy"), "{}", a.body);
    let r = request(
        &addr,
        "POST",
        "/api/response",
        "Content-Type: application/json\r\n",
        r#"{"model": "coulomb"}"#,
    );
    assert_eq!((r.status, r.header("retry-after")), (503, Some("2")), "{}", r.body);
    // what needs no slot still works: reading, progress, cancel
    assert_eq!(request(&addr, "GET", "/api/models", "", "").status, 200);
    assert_eq!(request(&addr, "POST", "/api/cancel/hold", "", "").status, 200);
    assert_eq!(runner.join().unwrap().status, 200);
    let a = request(&addr, "POST", "/api/run", "", &small());
    assert_eq!(a.status, 200, "{}", a.body);
}

#[test]
fn a_request_waits_in_the_queue_while_a_slot_is_taken() {
    let addr = server(ServeOptions { max_jobs: 1, max_queued: 1, ..Default::default() });
    let text = long_run();
    let a2 = addr.clone();
    let runner = std::thread::spawn(move || request(&a2, "POST", "/api/run?id=hold", "", &text));
    wait_running(&addr, "hold");
    let a3 = addr.clone();
    let queued = std::thread::spawn(move || request(&a3, "POST", "/api/run?id=queued", "", &small()));
    // the queued one has not started while the slot is taken; then it runs
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(request(&addr, "GET", "/api/progress/queued", "", "").status, 404);
    assert_eq!(request(&addr, "POST", "/api/cancel/hold", "", "").status, 200);
    assert_eq!(runner.join().unwrap().status, 200);
    let q = queued.join().unwrap();
    assert_eq!(q.status, 200, "{}", q.body);
}

/// Send `GET / HTTP/1.1\r\nHost: ...` one byte every 100 ms (for at most
/// `limit`); whether the server closed the connection first, and when.
fn trickle(addr: &str, limit: Duration) -> (bool, Duration) {
    let mut s = TcpStream::connect(addr).unwrap();
    let mut r = s.try_clone().unwrap();
    r.set_read_timeout(Some(Duration::from_millis(50))).unwrap();
    let bytes = format!("GET / HTTP/1.1\r\nHost: {addr}\r\nX-Slow: {}", "a".repeat(10_000));
    let start = Instant::now();
    for b in bytes.bytes() {
        if start.elapsed() > limit {
            return (false, start.elapsed());
        }
        if s.write_all(&[b]).is_err() {
            return (true, start.elapsed());
        }
        let mut buf = [0u8; 256];
        match r.read(&mut buf) {
            // closed (an answer such as 408, then the end, counts as closed too)
            Ok(0) | Ok(_) => return (true, start.elapsed()),
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {}
            Err(_) => return (true, start.elapsed()),
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    (false, start.elapsed())
}

#[test]
fn a_client_sending_headers_one_byte_at_a_time_is_dropped() {
    let addr = server(ServeOptions { header_timeout: Duration::from_secs(1), ..Default::default() });
    let (closed, after) = trickle(&addr, Duration::from_secs(20));
    assert!(closed, "still open after {after:?}");
    // a connection that sends nothing at all is closed too
    let mut s = TcpStream::connect(&addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let mut buf = [0u8; 64];
    let r = s.read(&mut buf);
    assert!(
        matches!(r, Ok(0)) || matches!(&r, Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset),
        "{r:?}"
    );
    // and the server still answers
    assert_eq!(request(&addr, "GET", "/api/models", "", "").status, 200);
}

#[test]
fn every_error_is_in_the_api_json_form() {
    let addr = server(ServeOptions { max_body: 100_000, ..Default::default() });
    // 404, page and API
    for path in ["/nope", "/api/nope", "/assets/nope.js"] {
        let a = request(&addr, "GET", path, "", "");
        assert_eq!(a.status, 404, "{path}");
        assert!(a.error().contains(path), "{}", a.body);
    }
    // 405 (the Allow header kept)
    let a = request(&addr, "GET", "/api/run", "", "");
    assert_eq!(a.status, 405);
    assert!(a.error().contains("GET is not allowed on /api/run"), "{}", a.body);
    let a = request(&addr, "DELETE", "/api/models", "", "");
    assert_eq!(a.status, 405, "{}", a.body);
    a.error();
    // 413: a body over the limit, declared (refused before it is sent) or not
    let mut s = TcpStream::connect(&addr).unwrap();
    write!(
        s,
        "POST /api/run HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: 300000\r\n\r\n"
    )
    .unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let out = String::from_utf8_lossy(&out);
    assert!(out.starts_with("HTTP/1.1 413"), "{out}");
    assert!(
        out.contains("{\"error\":\"the request body is over the server's limit of 100000 bytes"),
        "{out}"
    );
    let mut s = TcpStream::connect(&addr).unwrap();
    let _ = write!(
        s,
        "POST /api/run HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n"
    );
    for _ in 0..3 {
        let _ = write!(s, "{:x}\r\n{}\r\n", 50_000, "#".repeat(50_000));
    }
    let _ = write!(s, "0\r\n\r\n");
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let out = String::from_utf8_lossy(&out);
    assert!(out.starts_with("HTTP/1.1 413"), "{out}");
    assert!(out.contains("{\"error\":"), "{out}");
    // 400 from the router's own checks: a body that is not UTF-8, a bad query
    let a = raw(&addr, "POST", "/api/run", &format!("Host: {addr}\r\n"), &[0xff, 0xfe, 0x00]);
    assert_eq!(a.status, 400, "{}", a.body);
    a.error();
    let a = request(&addr, "POST", "/api/run?id=a&id=b&name", "", &small());
    assert!(a.status >= 400, "{}", a.body);
    a.error();
    // 403
    let a = request(&addr, "POST", "/api/run", "Origin: http://evil.example\r\n", &small());
    assert_eq!(a.status, 403);
    a.error();
}

#[test]
fn an_output_too_large_for_memory_is_refused_with_413_before_it_runs() {
    let addr = default_server();
    // 10^6 rows (within the scenario's own 4 GiB limit): refused at once
    // with the estimate, not run
    let text = BASE.replace("t_end = 0.5", "t_end = 1000.0");
    let a = request(addr, "POST", "/api/run?id=huge", "", &text);
    assert_eq!(a.status, 413, "{}", a.body);
    let m = a.error();
    assert!(m.contains("1000001 rows") && m.contains("MB in memory") && m.contains("output_dt"), "{m}");
    assert_eq!(request(addr, "GET", "/api/progress/huge", "", "").status, 404);
}

/// Peak resident memory (VmHWM) of process `pid` in kB.
fn peak_kb(pid: u32) -> u64 {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    s.lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

/// The bound on the peak memory of `friction serve` under the load test.
const PEAK_BOUND_MB: u64 = 300;

#[test]
fn under_load_every_request_is_answered_within_a_bounded_memory() {
    let mut child = friction()
        .args(["serve", "--port", "0"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let url = line.trim().strip_prefix("friction serve: ").unwrap_or_else(|| panic!("{line}")).to_string();
    let addr = url.strip_prefix("http://").unwrap().trim_end_matches('/').to_string();
    let start = Instant::now();
    // a slow-header client beside the load
    let a0 = addr.clone();
    let slow = std::thread::spawn(move || trickle(&a0, Duration::from_secs(40)));
    // 20 clients, 10 requests each: runs, model lists and response curves
    let clients: Vec<_> = (0..20)
        .map(|c| {
            let a = addr.clone();
            std::thread::spawn(move || {
                (0..10)
                    .map(|k| match (c + k) % 4 {
                        0 | 1 => request(&a, "POST", "/api/run", "", &small()),
                        2 => request(&a, "GET", "/api/models", "", ""),
                        _ => request(
                            &a,
                            "POST",
                            "/api/response",
                            "Content-Type: application/json\r\n",
                            r#"{"model": "lugre", "loop": {"amplitude": 1e-4, "frequency": 1}}"#,
                        ),
                    })
                    .map(|r| (r.status, r.body.chars().take(200).collect::<String>()))
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let answers: Vec<(u16, String)> = clients.into_iter().flat_map(|h| h.join().unwrap()).collect();
    let (closed, after) = slow.join().unwrap();
    let peak = peak_kb(child.id());
    let took = start.elapsed();
    child.kill().unwrap();
    let _ = child.wait();
    assert_eq!(answers.len(), 200);
    let bad: Vec<_> = answers.iter().filter(|(s, _)| *s != 200).collect();
    assert!(bad.is_empty(), "{} of 200 not answered 200: {:?}", bad.len(), bad.first());
    assert!(closed, "the slow-header client was still connected after {after:?}");
    eprintln!("load test: 200 requests in {took:?}, peak memory {} MB", peak / 1024);
    assert!(peak < PEAK_BOUND_MB * 1024, "peak memory {} MB over {PEAK_BOUND_MB} MB", peak / 1024);
}
