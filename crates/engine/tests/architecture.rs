//! Architecture invariants that no type checker sees: the engine's
//! top-level modules depend on each other without cycles (each stage of the
//! pipeline only reads earlier ones), and the engine has no web dependency.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// `crate::name` references of a source file, outside comments and its
/// `#[cfg(test)] mod tests` (tests may use anything).
fn references(src: &str) -> BTreeSet<String> {
    let code = src.split("#[cfg(test)]\nmod tests").next().unwrap_or(src);
    let mut out = BTreeSet::new();
    for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
        for (i, _) in line.match_indices("crate::") {
            let name: String = line[i + 7..]
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_' || c.is_ascii_digit())
                .collect();
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

fn module_graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            if p.extension().is_none_or(|x| x != "rs") {
                continue;
            }
            let rel = p.strip_prefix(&src).unwrap().to_string_lossy().to_string();
            let top = rel.split(['/', '.']).next().unwrap().to_string();
            if top == "lib" {
                continue;
            }
            let refs = references(&std::fs::read_to_string(&p).unwrap());
            graph.entry(top.clone()).or_default().extend(refs.into_iter().filter(|r| *r != top));
        }
    }
    graph
}

#[test]
fn engine_modules_have_no_cycles() {
    let graph = module_graph();
    assert!(graph.len() >= 15, "found only {} modules", graph.len());
    // Depth-first search for a back edge.
    fn visit(
        n: &str,
        g: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(n.to_string(), 1);
        path.push(n.to_string());
        for m in g.get(n).into_iter().flatten().filter(|m| g.contains_key(*m)) {
            match state.get(m.as_str()) {
                Some(1) => {
                    let start = path.iter().position(|p| p == m).unwrap();
                    let mut cycle = path[start..].to_vec();
                    cycle.push(m.clone());
                    return Some(cycle);
                }
                Some(_) => {}
                None => {
                    if let Some(c) = visit(m, g, state, path) {
                        return Some(c);
                    }
                }
            }
        }
        path.pop();
        state.insert(n.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for n in graph.keys() {
        if !state.contains_key(n.as_str()) {
            if let Some(c) = visit(n, &graph, &mut state, &mut Vec::new()) {
                panic!("module cycle: {}", c.join(" -> "));
            }
        }
    }
    // The first stages read nothing later in the pipeline.
    for (early, later) in [("segment", "parse"), ("facts", "parse"), ("parse", "rules"), ("parse", "diagnose")] {
        assert!(!graph[early].contains(later), "{early} must not depend on {later}");
    }
}

#[test]
fn engine_has_no_web_dependency() {
    let manifest = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")).unwrap();
    for web in ["leptos", "web-sys", "wasm-bindgen", "js-sys", "gloo"] {
        assert!(!manifest.contains(web), "the engine depends on {web}");
    }
}
