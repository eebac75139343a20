//! `roll-doctor`: the native command line over the same engine as the web page.
//!
//! ```text
//! roll-doctor diagnose [FILE…|-] [--format text|json|markdown] [--lang en|zh] [--rules PATH]… [--kb FILE] [--nodes]
//!                     [--fail-on error|warn|info]
//! roll-doctor rules [--format text|json] [--rules PATH]…
//! roll-doctor facts
//! roll-doctor new-rule LINE
//! roll-doctor collector [--ray] > roll-doctor-collect.sh
//! ```
//! Exit status: 0 when the diagnosis ran (with or without findings), 2 on bad
//! usage or unreadable input; with `--fail-on SEVERITY`, 1 when a finding at
//! that severity or a worse one was found (a pre-flight check in a launch
//! script stops there), the report printed all the same.

use clap::{Parser, Subcommand, ValueEnum};
use roll_doctor_engine::catalogue::{rule_files, Catalogue};
use roll_doctor_engine::{catalogue, diagnose_with, parse, render, Input, InputKind, KindOverride, Lang, Severity};
use std::io::{IsTerminal, Read, Write};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "roll-doctor",
    version,
    about = "Diagnose ROLL on Ascend NPU failures from logs, configs and command output"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
    Markdown,
}

#[derive(Clone, Copy, ValueEnum)]
enum ListFormat {
    Text,
    Json,
}

/// The least severe finding `--fail-on` stops for.
#[derive(Clone, Copy, ValueEnum)]
enum FailOn {
    Error,
    Warn,
    Info,
}

impl FailOn {
    fn severity(self) -> Severity {
        match self {
            FailOn::Error => Severity::Error,
            FailOn::Warn => Severity::Warn,
            FailOn::Info => Severity::Info,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum LangArg {
    En,
    Zh,
}

#[derive(Subcommand)]
enum Command {
    /// Diagnose files (or standard input with `-` or no file): logs, ROLL configs, terminal transcripts.
    Diagnose {
        /// Files to read; `-` is standard input. All files are diagnosed together.
        files: Vec<String>,
        /// Output format. JSON follows docs/report-schema.md.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Language of titles and explanations (default: from $LANG, else en).
        #[arg(long, value_enum)]
        lang: Option<LangArg>,
        /// Override the detected kind of a segment: `LINE=KIND` (first file) or
        /// `FILE_NO:LINE=KIND` (1-based file number), LINE being the segment's
        /// first line as the JSON `segments` list shows it. Repeatable.
        #[arg(long = "kind", value_name = "[FILE_NO:]LINE=KIND")]
        kinds: Vec<String>,
        /// Extra rule files (a YAML file or a folder of them) used beside the built-in rules,
        /// to try a new rule without rebuilding. Their errors are printed, not fatal. Repeatable.
        #[arg(long = "rules", value_name = "PATH")]
        rules: Vec<String>,
        /// An ascend-fd knowledge base (`kg-config.json`): its fault entries are matched after the
        /// rules and reported as their own group.
        #[arg(long = "kb", value_name = "FILE")]
        kb: Option<String>,
        /// Each file is one node's output, named after the file (`node-3.txt` → `node-3`).
        /// Without it, collector node markers inside the files name the nodes.
        #[arg(long)]
        nodes: bool,
        /// Exit with status 1 when a finding at this severity or a worse one is found (`error`:
        /// errors only; `warn`: errors and warnings; `info`: any finding), after printing the
        /// report. For pre-flight checks in launch scripts.
        #[arg(long, value_enum, value_name = "SEVERITY")]
        fail_on: Option<FailOn>,
    },
    /// List every rule with its id, severity and titles.
    Rules {
        #[arg(long, value_enum, default_value = "text")]
        format: ListFormat,
        /// Extra rule files, as for `diagnose`: check them and list them too.
        #[arg(long = "rules", value_name = "PATH")]
        rules: Vec<String>,
    },
    /// List the facts rules can use: name, value type, subject, meaning.
    Facts,
    /// Print the collector: the shell script that gathers one node's state (read-only), or with
    /// --ray the Python script that runs it on every node of the Ray cluster and writes one bundle.
    Collector {
        /// The Ray (whole-cluster) collector instead of the one-node shell script.
        #[arg(long)]
        ray: bool,
    },
    /// Print a rule-file stub for a log line no rule explains (to complete and put in rules/).
    NewRule {
        /// The line, as the report's unexplained list shows it.
        line: String,
    },
    /// Print every log signature pattern, one per line (for `rg -f`, used by `cargo xtask bench`).
    #[command(hide = true)]
    Signatures,
}

fn default_lang() -> Lang {
    for var in ["LC_ALL", "LC_MESSAGES", "LANG"] {
        if let Ok(v) = std::env::var(var) {
            if let Some(l) = Lang::parse(&v) {
                return l;
            }
        }
    }
    Lang::En
}

fn read_input(name: &str) -> Result<Input, String> {
    let bytes = if name == "-" {
        let mut buf = Vec::new();
        std::io::stdin().read_to_end(&mut buf).map_err(|e| format!("cannot read standard input: {e}"))?;
        buf
    } else {
        std::fs::read(name).map_err(|e| format!("cannot read {name}: {e}"))?
    };
    // Logs may hold stray binary bytes; keep everything readable instead of
    // refusing. Valid UTF-8 (the usual case) is taken as is: no second copy.
    let text = String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    Ok(Input { label: if name == "-" { "stdin".into() } else { name.into() }, text, ..Input::default() })
}

/// Parses `[FILE_NO:]LINE=KIND`.
fn parse_kind(spec: &str) -> Result<(usize, KindOverride), String> {
    let bad = || format!("--kind {spec}: expected [FILE_NO:]LINE=KIND, KIND one of {}", kind_names().join(", "));
    let (pos, kind) = spec.split_once('=').ok_or_else(bad)?;
    let (file, line) = match pos.split_once(':') {
        Some((f, l)) => (f.parse::<usize>().map_err(|_| bad())?.checked_sub(1).ok_or_else(bad)?, l),
        None => (0, pos),
    };
    let start_line = line.parse::<u32>().map_err(|_| bad())?;
    let kind = serde_json::from_value::<InputKind>(serde_json::Value::String(kind.to_string())).map_err(|_| bad())?;
    Ok((file, KindOverride { start_line, kind }))
}

fn kind_names() -> Vec<String> {
    InputKind::ALL
        .iter()
        .filter_map(|k| serde_json::to_value(k).ok())
        .filter_map(|v| v.as_str().map(String::from))
        .collect()
}

/// Reads extra rule files: a `.yaml` file, or every `.yaml` below a folder (sorted).
fn read_rules(paths: &[String]) -> Result<Vec<(String, String)>, String> {
    fn walk(p: &std::path::Path, out: &mut Vec<std::path::PathBuf>) -> Result<(), String> {
        if p.is_dir() {
            let mut entries: Vec<_> = std::fs::read_dir(p)
                .map_err(|e| format!("cannot read {}: {e}", p.display()))?
                .flatten()
                .map(|e| e.path())
                .collect();
            entries.sort();
            for e in entries {
                walk(&e, out)?;
            }
        } else if p.extension().is_some_and(|x| x == "yaml" || x == "yml") {
            out.push(p.to_path_buf());
        }
        Ok(())
    }
    let mut files = Vec::new();
    for p in paths {
        let path = std::path::Path::new(p);
        if !path.exists() {
            return Err(format!("--rules {p}: no such file or folder"));
        }
        walk(path, &mut files)?;
    }
    files
        .iter()
        .map(|f| {
            let src = std::fs::read_to_string(f).map_err(|e| format!("cannot read {}: {e}", f.display()))?;
            Ok((f.display().to_string(), src))
        })
        .collect()
}

/// The built-in catalogue, or one with the extra rule files; their load
/// errors go to standard error.
fn catalogue_with(rules: &[String], kb: Option<&str>) -> Result<&'static Catalogue, String> {
    if rules.is_empty() && kb.is_none() {
        return Ok(catalogue());
    }
    let extra = read_rules(rules)?;
    let kb = match kb {
        None => None,
        Some(path) => {
            let json = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
            let kb = roll_doctor_engine::kb::load(&json).map_err(|e| format!("{path}: {e}"))?;
            if !kb.skipped.is_empty() {
                eprintln!(
                    "roll-doctor: {path}: {} entries used, {} skipped (multi-line or unsupported patterns)",
                    kb.rules.len(),
                    kb.skipped.len()
                );
            }
            Some(kb)
        }
    };
    let cat = Catalogue::load_full(rule_files(), &extra, kb.as_ref());
    for e in &cat.errors {
        eprintln!("roll-doctor: rule not loaded: {e}");
    }
    // The process ends after one diagnosis: keeping the catalogue for its
    // lifetime is what the built-in one does too.
    Ok(Box::leak(Box::new(cat)))
}

/// What a command prints, and whether `--fail-on` found what it stops for.
struct Outcome {
    out: String,
    failed: bool,
}

impl From<String> for Outcome {
    fn from(out: String) -> Self {
        Outcome { out, failed: false }
    }
}

fn run(cli: Cli) -> Result<Outcome, String> {
    match cli.command {
        Command::Diagnose { files, format, lang, kinds, rules, kb, nodes, fail_on } => {
            let lang = match lang {
                Some(LangArg::En) => Lang::En,
                Some(LangArg::Zh) => Lang::Zh,
                None => default_lang(),
            };
            let files = if files.is_empty() {
                if std::io::stdin().is_terminal() {
                    return Err("no input: give FILE… or pipe text to `roll-doctor diagnose -`".into());
                }
                vec!["-".to_string()]
            } else {
                files
            };
            let mut inputs = files.iter().map(|f| read_input(f)).collect::<Result<Vec<_>, _>>()?;
            if nodes {
                for (input, name) in inputs.iter_mut().zip(&files) {
                    let stem = std::path::Path::new(name).file_stem().map(|s| s.to_string_lossy().into_owned());
                    input.node = stem.filter(|s| name != "-" && !s.is_empty());
                }
            }
            let cat = catalogue_with(&rules, kb.as_deref())?;
            for k in &kinds {
                let (file, o) = parse_kind(k)?;
                let input =
                    inputs.get_mut(file).ok_or_else(|| format!("--kind {k}: there is no file number {}", file + 1))?;
                input.overrides.push(o);
            }
            let report = diagnose_with(cat, &inputs);
            let failed = fail_on.is_some_and(|s| report.findings.iter().any(|f| f.severity <= s.severity()));
            let out = match format {
                Format::Json => serde_json::to_string_pretty(&report).expect("report serialises") + "\n",
                Format::Text => render::text(&report, lang),
                Format::Markdown => render::markdown(&report, lang),
            };
            Ok(Outcome { out, failed })
        }
        Command::Rules { format, rules } => {
            let cat = catalogue_with(&rules, None)?;
            Ok(Outcome::from(match format {
                ListFormat::Json => {
                    let rules: Vec<_> = cat
                        .rules
                        .iter()
                        .map(|r| {
                            serde_json::json!({
                                "id": r.id, "severity": r.severity, "title": r.title,
                                "steps": r.steps.len(), "fixes": r.fixes.len(), "outranks": r.outranks,
                            })
                        })
                        .collect();
                    serde_json::to_string_pretty(&serde_json::json!({
                        "rules_version": cat.version(),
                        "errors": cat.errors.iter().map(|e| e.to_string()).collect::<Vec<_>>(),
                        "rules": rules,
                    }))
                    .expect("serialises")
                        + "\n"
                }
                ListFormat::Text => {
                    let mut o = String::new();
                    for r in &cat.rules {
                        o.push_str(&format!(
                            "{:<40} {:<6} {}\n",
                            r.id,
                            format!("{:?}", r.severity).to_lowercase(),
                            r.title.en
                        ));
                    }
                    o
                }
            }))
        }
        Command::Collector { ray } => {
            Ok(if ray { roll_doctor_engine::collector::RAY } else { roll_doctor_engine::collector::SHELL }
                .to_string()
                .into())
        }
        Command::NewRule { line } => Ok(roll_doctor_engine::stub::rule_from_line(&line).into()),
        Command::Signatures => {
            Ok(catalogue().signatures.patterns.iter().map(|p| format!("{p}\n")).collect::<String>().into())
        }
        Command::Facts => Ok(parse::fact_defs()
            .map(|d| format!("{:<32} {:<5} {:<18} {}\n", d.name, d.ty.name(), d.subject.unwrap_or("-"), d.doc))
            .collect::<String>()
            .into()),
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            // clap uses 0 for --help/--version and 2 for usage errors.
            return ExitCode::from(e.exit_code() as u8);
        }
    };
    match run(cli) {
        Ok(Outcome { out, failed }) => {
            let mut stdout = std::io::stdout().lock();
            // A closed pipe (`| head`) is not an error worth a panic.
            let _ = stdout.write_all(out.as_bytes());
            if failed {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(msg) => {
            eprintln!("roll-doctor: {msg}");
            ExitCode::from(2)
        }
    }
}
