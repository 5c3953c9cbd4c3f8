//! `friction serve`: the web application of `friction_serve` on a local
//! port, its URL printed.

use std::net::{IpAddr, TcpListener};
use std::process::ExitCode;

use clap::Args;

/// Arguments of `friction serve`.
#[derive(Args)]
pub struct ServeArgs {
    /// Port (default: 8787, or a free port chosen by the system when 8787 is
    /// taken; 0 always chooses a free one).
    #[arg(long, value_parser = crate::count(0, 65535))]
    port: Option<u64>,
    /// Address to listen on (default 127.0.0.1; 0.0.0.0 serves every
    /// network interface, with a warning).
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Open the page in the default browser (xdg-open).
    #[arg(long)]
    open: bool,
    /// Longest wall-clock time of one run, in seconds (a scenario's own
    /// `max_wall` applies when shorter; > 0).
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0, allow_negative_numbers = true)]
    max_wall: f64,
}

fn bind(host: IpAddr, port: Option<u64>) -> std::io::Result<TcpListener> {
    match port {
        Some(p) => TcpListener::bind((host, p as u16)),
        None => TcpListener::bind((host, 8787)).or_else(|_| TcpListener::bind((host, 0))),
    }
}

/// Run `friction serve` until interrupted.
pub fn run(a: &ServeArgs) -> ExitCode {
    let host: IpAddr = match a.host.parse() {
        Ok(h) => h,
        Err(_) => {
            eprintln!("error: option --host: `{}` is not an IP address (127.0.0.1, ::1, 0.0.0.0)", a.host);
            return ExitCode::from(2);
        }
    };
    if !(a.max_wall.is_finite() && a.max_wall > 0.0) {
        eprintln!("error: option --max-wall: {} is out of range; valid range (0, inf) seconds", a.max_wall);
        return ExitCode::from(2);
    }
    if !host.is_loopback() {
        eprintln!(
            "warning: serving on {host}: every machine that reaches this one can use the page and run \
             simulations on it (there is no authentication)"
        );
    }
    let listener = match bind(host, a.port) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: cannot listen on {}:{}: {e}", a.host, a.port.unwrap_or(8787));
            return ExitCode::from(2);
        }
    };
    let addr = match listener.local_addr() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let shown = if host.is_unspecified() { format!("127.0.0.1:{}", addr.port()) } else { addr.to_string() };
    let url = format!("http://{shown}/");
    {
        use std::io::Write as _;
        let mut out = std::io::stdout();
        let _ = writeln!(out, "friction serve: {url}");
        let _ = writeln!(out, "(Ctrl-C stops it)");
        let _ = out.flush();
    }
    if a.open {
        match std::process::Command::new("xdg-open").arg(&url).spawn() {
            Ok(_) => {}
            Err(e) => eprintln!("warning: --open: cannot start xdg-open ({e}); open {url} in a browser"),
        }
    }
    let opts = friction_serve::ServeOptions { max_wall: a.max_wall, ..Default::default() };
    match friction_serve::serve_blocking(listener, opts) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}
