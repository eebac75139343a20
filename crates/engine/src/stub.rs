//! "New rule from this line": a rule-file stub for a failure-like line no
//! rule explains, for a support engineer to complete and drop into
//! `rules/` (or load with `--rules`). The signature is the line's stable
//! part — the exception type and the start of its message, or the CANN
//! code, or the line itself — with numbers, addresses and hex values
//! generalised, so the next occurrence with other values matches too. The
//! stub loads as it is (its texts say what to fill in, in both languages).

/// The Ray/vLLM worker prefix and the timestamp that start many log lines.
fn strip_prefixes(line: &str) -> &str {
    let mut t = line.trim();
    // `(WorkerDict pid=123)`, `(VllmWorker TP1 pid=961)`
    if t.starts_with('(') {
        if let Some(i) = t.find(')') {
            if t[..i].contains("pid=") {
                t = t[i + 1..].trim_start();
            }
        }
    }
    // `[rank0]:`
    if t.starts_with("[rank") {
        if let Some(i) = t.find("]:") {
            t = t[i + 2..].trim_start();
        }
    }
    t
}

/// The part of a line to match: from a Python exception type (`KeyError:`,
/// `torch.OutOfMemoryError:`) or a CANN code on, else the whole line.
fn stable_part(line: &str) -> &str {
    let t = strip_prefixes(line);
    // A letter code starts the stable part; a return code (`… failed: 507033`)
    // ends the message that says what failed, so the part starts before it.
    if let Some(code) = crate::cann::codes_in(t).into_iter().find(|c| !c.starts_with(|d: char| d.is_ascii_digit())) {
        if let Some(i) = t.find(&code) {
            return &t[i..];
        }
    }
    let bytes = t.as_bytes();
    for (i, _) in t.match_indices(':') {
        let head = &t[..i];
        let word_start =
            head.rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '_')).map(|j| j + 1).unwrap_or(0);
        let word = &head[word_start..];
        let last = word.rsplit('.').next().unwrap_or(word);
        let is_exception = (last.ends_with("Error") || last.ends_with("Exception") || last.ends_with("Exit"))
            && last.chars().next().is_some_and(|c| c.is_ascii_uppercase());
        if is_exception && (word_start == 0 || !bytes[word_start - 1].is_ascii_alphanumeric()) {
            return &t[word_start..];
        }
    }
    t
}

/// The line as a pattern of the engine's dialect: literal text, with runs of
/// digits, hex values and IP addresses generalised, at most `max` characters
/// of the original.
pub fn signature_of(line: &str, max: usize) -> String {
    let part = stable_part(line);
    let part: String = part.chars().take(max).collect();
    let mut out = String::new();
    let chars: Vec<char> = part.trim_end().chars().collect();
    let mut i = 0;
    // A CANN code stays literal: it is the most stable part there is.
    if let Some(code) = crate::cann::codes_in(&part).into_iter().next().filter(|c| part.starts_with(c.as_str())) {
        out.push_str(&code);
        i = code.chars().count();
    }
    while i < chars.len() {
        let c = chars[i];
        if c == '0'
            && chars.get(i + 1).is_some_and(|x| *x == 'x' || *x == 'X')
            && chars.get(i + 2).is_some_and(|x| x.is_ascii_hexdigit())
        {
            i += 2;
            while chars.get(i).is_some_and(|x| x.is_ascii_hexdigit()) {
                i += 1;
            }
            out.push_str("0x[0-9A-Fa-f]+");
            continue;
        }
        if c.is_ascii_digit() {
            // 10.20.0.29, 1.5, 2025-04-08: one class for the whole run.
            while chars.get(i).is_some_and(|x| {
                x.is_ascii_digit() || ((*x == '.' || *x == ':') && chars.get(i + 1).is_some_and(|y| y.is_ascii_digit()))
            }) {
                i += 1;
            }
            out.push_str("[0-9.:]+");
            continue;
        }
        if c.is_whitespace() {
            while chars.get(i).is_some_and(|x| x.is_whitespace()) {
                i += 1;
            }
            out.push_str(r"\s+");
            continue;
        }
        out.push_str(&regex::escape(&c.to_string()));
        i += 1;
    }
    out
}

/// A kebab-case id from the line: `new-` and the exception type or first words.
fn id_of(line: &str) -> String {
    let part = stable_part(line);
    let head: String = part.split([':', '(', '[']).next().unwrap_or("").to_string();
    let mut words = Vec::new();
    let mut cur = String::new();
    for c in head.chars() {
        if c.is_ascii_uppercase() && !cur.is_empty() && !cur.ends_with(|x: char| x.is_ascii_uppercase()) {
            words.push(std::mem::take(&mut cur));
        }
        if c.is_ascii_alphanumeric() {
            cur.push(c.to_ascii_lowercase());
        } else if !cur.is_empty() {
            words.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words.retain(|w| !w.is_empty());
    words.truncate(5);
    if words.is_empty() {
        "new-rule".to_string()
    } else {
        format!("new-{}", words.join("-"))
    }
}

fn yaml_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

/// The rule-file stub for `line`.
pub fn rule_from_line(line: &str) -> String {
    let id = id_of(line);
    let sig = signature_of(line, 160);
    let example: String = line.trim().chars().take(400).collect();
    format!(
        "# A stub made by roll-doctor from a line no rule explains. Fill in the texts (your own words,\n\
         # both languages), check the signature matches only this failure, add steps and a real fix,\n\
         # then save it as rules/<pack>/{id}.yaml (or load it with `roll-doctor diagnose --rules`).\n\
         id: {id}\n\
         severity: error\n\
         area: other\n\
         title:\n  en: 'TODO: what failed, in a few words'\n  zh: '待填写：用几个字说明出了什么问题'\n\
         summary:\n  en: 'TODO: what this means and why it happens'\n  zh: '待填写：这表示什么，为什么会发生'\n\
         when:\n  signature: {sig}\n\
         fixes:\n  - title:\n      en: 'TODO: what to do'\n      zh: '待填写：如何处理'\n    commands:\n      - 'echo TODO'\n\
         examples:\n  match:\n    - {ex}\n  no_match:\n    - 'INFO all good'\n\
         sources:\n  - 'TODO: where this failure is described (issue, PR, docs)'\n",
        sig = yaml_quote(&sig),
        ex = yaml_quote(&example),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stub_loads_and_matches_the_line_with_other_values() {
        let line =
            "(WorkerDict pid=2211) ValueError: Expected tensor of shape [4096, 128] but got [2048, 128] on device 3";
        let stub = rule_from_line(line);
        let cat = crate::Catalogue::load(&[("stub.yaml", &stub)]);
        assert!(cat.errors.is_empty(), "{:?}\n{stub}", cat.errors);
        assert_eq!(cat.rules[0].id, "new-value-error");
        let hit = |t: &str| {
            !crate::diagnose_with(&cat, &[crate::Input { text: t.into(), ..Default::default() }]).findings.is_empty()
        };
        assert!(hit(line));
        assert!(hit(
            "(WorkerDict pid=99) ValueError: Expected tensor of shape [8192, 64] but got [1024, 64] on device 0"
        ));
        assert!(!hit("ValueError: something else entirely"));
    }

    #[test]
    fn codes_addresses_and_hex() {
        let s = signature_of("[rank0]: EJ0003: [PID: 159] 2025-01-01 Failed to bind 10.20.0.29:16666 ret 0x7f1a", 200);
        assert!(s.starts_with("EJ0003:"), "{s}");
        let re = crate::pattern::compile(&s).unwrap();
        assert!(re.is_match(b"EJ0003: [PID: 7] 2026-02-02 Failed to bind 10.0.0.1:60000 ret 0xdead"));
        assert_eq!(id_of("torch.OutOfMemoryError: NPU out of memory"), "new-torch-out-of-memory-error");
        assert_eq!(id_of("!!!"), "new-rule");
    }
}
