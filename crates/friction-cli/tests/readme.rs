//! Every shell command shown in README.md (```sh, ```bash, ```shell and
//! ```console blocks) and every `examples/*.sh` script runs exactly as
//! written, with the `friction` binary under test first on `PATH`, in a
//! scratch copy of the repository (the commands write into `out/`).
//!
//! A README line may end with `# exit N` to state an expected exit status
//! other than 0. Commands that are not run are listed in [`skipped`] with the
//! reason; every other `cargo` command is run, with the workspace's target
//! directory so that nothing is built twice.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// Why a command is not run, or `None` when it is.
fn skipped(cmd: &str) -> Option<&'static str> {
    if cmd.starts_with("cargo install ") {
        Some("installs a release build of this same binary into ~/.cargo/bin (11 min here); the test runs the binary cargo test built")
    } else if cmd.starts_with("bench/compare/run.sh") {
        Some("the comparison suite: a release build and about 5 minutes of timing; `python/tests/test_bench_compare.py` runs its SciPy side, `.ci/run` lints its Rust side")
    } else if cmd.starts_with("scripts/test-all.sh")
        || cmd.starts_with("scripts/test-python.sh")
        || cmd.starts_with("cargo test")
    {
        Some("the test suite itself, which CI runs")
    } else {
        None
    }
}

/// `cargo run [--release] -p friction-cli -- ARGS` is the README's spelling of
/// `friction ARGS` without installing: run as `friction ARGS` with the binary
/// under test (a nested release build would take minutes).
fn as_friction(cmd: &str) -> Option<String> {
    for prefix in ["cargo run --release -p friction-cli -- ", "cargo run -p friction-cli -- "] {
        if let Some(args) = cmd.strip_prefix(prefix) {
            return Some(format!("friction {args}"));
        }
    }
    None
}

/// One command of a block: `(README line, shell, command, expected status)`.
struct Cmd {
    line: usize,
    shell: &'static str,
    text: String,
    status: i32,
}

/// The commands of the shell code blocks of a Markdown text.
fn commands(md: &str) -> Vec<Cmd> {
    let mut out = vec![];
    let mut block: Option<(&'static str, bool)> = None; // (shell, console prompts)
    let mut pending = String::new();
    let mut pending_line = 0;
    for (i, raw) in md.lines().enumerate() {
        let t = raw.trim_start();
        if let Some(lang) = t.strip_prefix("```") {
            block = match (block, lang.trim()) {
                (Some(_), _) => None,
                (None, "sh" | "shell") => Some(("sh", false)),
                (None, "bash") => Some(("bash", false)),
                (None, "console") => Some(("sh", true)),
                (None, _) => Some(("", false)),
            };
            continue;
        }
        let Some((shell, console)) = block else { continue };
        if shell.is_empty() {
            continue;
        }
        let mut l = raw.trim().to_string();
        if console {
            match l.strip_prefix("$ ") {
                Some(c) => l = c.to_string(),
                None if !pending.is_empty() => {}
                None => continue, // output shown after a prompt
            }
        }
        if pending.is_empty() && (l.is_empty() || l.starts_with('#')) {
            continue;
        }
        if pending.is_empty() {
            pending_line = i + 1;
        }
        if let Some(cont) = l.strip_suffix('\\') {
            pending.push_str(cont);
            pending.push(' ');
            continue;
        }
        pending.push_str(&l);
        let text = std::mem::take(&mut pending);
        let status = text.rsplit_once("# exit ").and_then(|(_, n)| n.trim().parse().ok()).unwrap_or(0);
        out.push(Cmd { line: pending_line, shell, text, status });
    }
    out
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let name = e.file_name();
        let n = name.to_string_lossy();
        if matches!(n.as_ref(), "target" | ".git" | "out" | "__pycache__" | ".venv") {
            continue;
        }
        let (src, dst) = (e.path(), to.join(&name));
        if e.file_type().unwrap().is_dir() {
            copy_tree(&src, &dst);
        } else {
            std::fs::copy(&src, &dst).unwrap();
        }
    }
}

/// A scratch copy of the repository and the environment the commands run in.
fn scratch(tag: &str) -> (PathBuf, Vec<(String, String)>) {
    let dir = common::tmp("readme", tag);
    copy_tree(&root(), &dir);
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_friction"));
    let bin_dir = bin.parent().unwrap().to_path_buf();
    let target = bin_dir.parent().unwrap().to_path_buf();
    let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap_or_default());
    (dir, vec![("PATH".into(), path), ("CARGO_TARGET_DIR".into(), target.display().to_string())])
}

fn run(dir: &Path, env: &[(String, String)], shell: &str, cmd: &str) -> (Option<i32>, String) {
    let o = Command::new(shell)
        .arg("-c")
        .arg(cmd)
        .current_dir(dir)
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .output()
        .unwrap_or_else(|e| panic!("cannot start {shell}: {e}"));
    let text = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    (o.status.code(), text)
}

/// A `friction serve` command runs until stopped: start it, read the URL it
/// prints, check that `GET /api/models` answers with the models, stop it.
fn serve(dir: &Path, env: &[(String, String)], cmd: &str) -> Result<(), String> {
    use std::io::{BufRead, Read, Write};
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("exec {cmd}"))
        .current_dir(dir)
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .stdout(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let mut line = String::new();
    let read = std::io::BufReader::new(child.stdout.take().ok_or("no stdout")?).read_line(&mut line);
    let answer = (|| -> Result<String, String> {
        read.map_err(|e| e.to_string())?;
        let url =
            line.trim().strip_prefix("friction serve: ").ok_or(format!("printed {line:?}, not its URL"))?;
        let addr = url.trim_start_matches("http://").trim_end_matches('/');
        let mut s = std::net::TcpStream::connect(addr).map_err(|e| format!("{addr}: {e}"))?;
        write!(s, "GET /api/models HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n")
            .map_err(|e| e.to_string())?;
        let mut body = String::new();
        s.read_to_string(&mut body).map_err(|e| e.to_string())?;
        Ok(body)
    })();
    let _ = child.kill();
    let _ = child.wait();
    let body = answer?;
    if body.starts_with("HTTP/1.1 200") && body.contains("\"lugre\"") {
        Ok(())
    } else {
        Err(format!("GET /api/models answered {}", body.lines().next().unwrap_or("nothing")))
    }
}

#[test]
fn the_block_parser_finds_commands_continuations_prompts_and_statuses() {
    let md = "text\n```sh\n# comment\nfriction run\nfriction fit \\\n  --model lugre\n```\n\
              ```toml\nname = 1\n```\n```console\n$ friction models x  # exit 2\nerror: ...\n```\n";
    let c = commands(md);
    let texts: Vec<&str> = c.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(texts, ["friction run", "friction fit  --model lugre", "friction models x  # exit 2"]);
    assert_eq!(c.iter().map(|c| c.status).collect::<Vec<_>>(), [0, 0, 2]);
    assert_eq!(c[0].line, 4);
    assert!(skipped("cargo install --path crates/friction-cli --locked").is_some());
    assert_eq!(
        as_friction("cargo run --release -p friction-cli -- models").as_deref(),
        Some("friction models")
    );
}

/// Every command of README.md's shell blocks, in order, exactly as written.
#[test]
fn every_readme_command_runs_as_written() {
    let md = std::fs::read_to_string(root().join("README.md")).unwrap();
    let cmds = commands(&md);
    assert!(cmds.len() >= 10, "only {} commands found in README.md", cmds.len());
    let (dir, env) = scratch("md");
    let mut ran = 0;
    let mut failures = vec![];
    for c in &cmds {
        if let Some(why) = skipped(&c.text) {
            eprintln!("README.md:{}: skipped `{}`: {why}", c.line, c.text);
            continue;
        }
        let cmd = as_friction(&c.text).unwrap_or_else(|| c.text.clone());
        if cmd.starts_with("friction serve") {
            if let Err(e) = serve(&dir, &env, &cmd) {
                failures.push(format!("README.md:{}: `{}`: {e}", c.line, c.text));
            }
            ran += 1;
            continue;
        }
        let (code, out) = run(&dir, &env, c.shell, &cmd);
        ran += 1;
        if code != Some(c.status) {
            failures.push(format!(
                "README.md:{}: `{}` exited with {code:?}, expected {}:\n{}",
                c.line,
                c.text,
                c.status,
                out.lines()
                    .rev()
                    .take(15)
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect::<Vec<_>>()
                    .join("\n")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(ran >= 8, "{ran} commands run");
    // what the commands say they write is there
    for f in
        ["out/lugre_stick_slip/summary.json", "out/iwan_loops/timeseries.csv", "out-scenario.schema.json"]
    {
        assert!(dir.join(f).exists(), "{f} was not written");
    }
    let lugre: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("out-lugre.json")).unwrap()).unwrap();
    assert_eq!(lugre["id"], "lugre");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every `examples/*.sh` runs as its usage line says (`sh examples/NAME.sh`),
/// after the README's set-up (`friction` on `PATH`).
#[test]
fn every_example_script_runs_as_written() {
    let (dir, env) = scratch("sh");
    let mut n = 0;
    for e in std::fs::read_dir(root().join("examples")).unwrap().flatten() {
        let p = e.path();
        if p.extension().is_none_or(|x| x != "sh") {
            continue;
        }
        let rel = format!("examples/{}", e.file_name().to_string_lossy());
        let text = std::fs::read_to_string(&p).unwrap();
        assert!(text.contains(&format!("sh {rel}")), "{rel} has no usage line `sh {rel}`");
        let (code, out) = run(&dir, &env, "sh", &format!("sh {rel}"));
        assert_eq!(code, Some(0), "sh {rel}:\n{out}");
        n += 1;
    }
    assert!(n >= 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every `](#anchor)` link of the README (its table of contents) leads to
/// a heading: GitHub's anchor of a heading is its text lower-cased, with
/// every character but letters, digits, spaces, `-` and `_` dropped and
/// spaces made `-`.
#[test]
fn every_link_of_the_readme_s_contents_leads_to_a_heading() {
    let md = std::fs::read_to_string(root().join("README.md")).unwrap();
    let mut anchors = std::collections::HashSet::new();
    let mut fenced = false;
    for line in md.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let text = line.trim_start_matches('#').trim();
        let a: String = text
            .to_lowercase()
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '-' | '_'))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        anchors.insert(a);
    }
    let mut links = 0;
    for part in md.split("](#").skip(1) {
        let target = &part[..part.find(')').unwrap()];
        assert!(anchors.contains(target), "README link #{target} leads to no heading");
        links += 1;
    }
    assert!(links >= 20, "the contents list {links} links");
}
