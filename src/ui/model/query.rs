//! The page's address as shared state: the lab owns some query keys ([`LAB_KEYS`]), each guided
//! figure one more ([`CHAPTER_KEYS`]). Every writer replaces only its own keys and keeps the rest,
//! so that a link carries the lab and every figure at once.
//!
//! ```
//! use allreduce_lab::ui::model::query::{merge, numbers};
//! let q = merge("?alg=ring&ring=4.2", &["ring"], &[("ring", "8.5".into())]);
//! assert_eq!(q, "?alg=ring&ring=8.5");
//! assert_eq!(numbers(&q, "ring", 2), Some(vec![8, 5]));
//! assert_eq!(numbers(&q, "ring", 3), None);
//! assert_eq!(merge("?a=1", &["a"], &[]), "");
//! ```

/// The keys the lab writes (see [`crate::ui::model::share`]).
pub const LAB_KEYS: [&str; 12] = [
    "alg", "topo", "gpus", "gpn", "npr", "bw", "lat", "size", "seg", "cmp", "step", "lang",
];
/// The guided figures' keys: §1.1 (cluster.GPUs) and the intro's three months (GPU.tokens B.MFU %), §1.2's story (story.storage MB/s.NIC Gbps),
/// memory (model.GB), roofline (GPU.tokens) and shortest stave (NIC %.late ms), §1.3.1 ring (GPUs.step), §1.3.2 tree (shape.GPUs), §1.4 racks (NIC
/// Gbps.uplink Gbps), the claims' conditions (GPUs.bytes.NIC Gbps.uplink Gbps, 0 = as in the chapter),
/// Ring vs Tree (its nine sliders, [`crate::ui::model::versus::VersusSetup::link_numbers`]), and the
/// speedup section ([`crate::ui::model::scaling::Setup::link_numbers`]).
pub const CHAPTER_KEYS: [&str; 12] = [
    "why", "months", "layers", "memory", "roofline", "barrel", "ring", "tree", "rack", "claims",
    "vs", "speedup",
];

fn pairs(query: &str) -> impl Iterator<Item = (&str, &str)> {
    query
        .strip_prefix('?')
        .unwrap_or(query)
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| p.split_once('=').unwrap_or((p, "")))
}

/// The value of `key` in `query` (with or without its `?`).
pub fn get<'a>(query: &'a str, key: &str) -> Option<&'a str> {
    pairs(query).find(|(k, _)| *k == key).map(|(_, v)| v)
}

/// `key`'s value read as exactly `count` whole numbers separated by dots; `None` for anything else.
pub fn numbers(query: &str, key: &str, count: usize) -> Option<Vec<u64>> {
    let value = get(query, key)?;
    if value.len() > 64 {
        return None;
    }
    let v: Vec<u64> = value
        .split('.')
        .map(|x| x.parse().ok())
        .collect::<Option<_>>()?;
    (v.len() == count).then_some(v)
}

/// `query` without the keys in `owned`, then `updates` appended; "" when nothing is left.
pub fn merge(query: &str, owned: &[&str], updates: &[(&str, String)]) -> String {
    let kept = pairs(query)
        .filter(|(k, _)| !owned.contains(k) && !updates.iter().any(|(u, _)| u == k))
        .map(|(k, v)| format!("{k}={v}"));
    let added = updates.iter().map(|(k, v)| format!("{k}={v}"));
    let all: Vec<String> = kept.chain(added).collect();
    if all.is_empty() {
        String::new()
    } else {
        format!("?{}", all.join("&"))
    }
}

/// `query` keeping only the keys in `keep`, then `updates` appended: what the lab writes (it owns
/// every key but the guided figures', so a stray or hostile key does not outlive the lab's answer).
pub fn replace_all_but(query: &str, keep: &[&str], updates: &[(&str, String)]) -> String {
    let others: Vec<&str> = pairs(query)
        .map(|(k, _)| k)
        .filter(|k| !keep.contains(k))
        .collect();
    merge(query, &others, updates)
}

/// In the browser: the current query and writing one (no history entry, the hash kept).
#[cfg(target_arch = "wasm32")]
pub mod web {
    /// The page's query string (`?…`), or nothing.
    pub fn current() -> String {
        web_sys::window()
            .and_then(|w| w.location().search().ok())
            .unwrap_or_default()
    }

    /// Replaces the keys in `owned` with `updates` in the address, keeping every other key.
    pub fn write(owned: &[&str], updates: &[(&str, String)]) {
        set(&super::merge(&current(), owned, updates));
    }

    /// Keeps only the keys in `keep` and adds `updates` (see
    /// [`replace_all_but`](super::replace_all_but)).
    pub fn write_all_but(keep: &[&str], updates: &[(&str, String)]) {
        set(&super::replace_all_but(&current(), keep, updates));
    }

    fn set(query: &str) {
        let Some(window) = web_sys::window() else {
            return;
        };
        let now = current();
        if query == now {
            return;
        }
        let hash = window.location().hash().unwrap_or_default();
        let path = window.location().pathname().unwrap_or_default();
        if let Ok(history) = window.history() {
            // Failing to update the address only loses the shareable link, never the page.
            let _ = history.replace_state_with_url(
                &wasm_bindgen::JsValue::NULL,
                "",
                Some(&format!("{path}{query}{hash}")),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writers_keep_each_others_keys() {
        let q = merge(
            "",
            &LAB_KEYS,
            &[("alg", "ring".into()), ("step", "3".into())],
        );
        let q = merge(&q, &["tree"], &[("tree", "binary.8".into())]);
        let q = merge(&q, &LAB_KEYS, &[("alg", "tree-flat".into())]);
        assert_eq!(q, "?tree=binary.8&alg=tree-flat");
        assert_eq!(get(&q, "tree"), Some("binary.8"));
        assert_eq!(get(&q, "step"), None);
    }

    #[test]
    fn the_lab_drops_stray_keys_but_keeps_the_figures() {
        let q = replace_all_but(
            "?garbage&ring=4.2&alg=x",
            &CHAPTER_KEYS,
            &[("alg", "ring".into())],
        );
        assert_eq!(q, "?ring=4.2&alg=ring");
    }

    #[test]
    fn numbers_refuse_anything_but_the_expected_count_of_whole_numbers() {
        for bad in [
            "?ring=",
            "?ring=8.",
            "?ring=8.x",
            "?ring=-1.2",
            "?ring=1.2.3",
            "?x=1.2",
        ] {
            assert_eq!(numbers(bad, "ring", 2), None, "{bad}");
        }
        let long = format!("?ring={}", "9".repeat(100));
        assert_eq!(numbers(&long, "ring", 1), None);
        assert_eq!(numbers("?ring=2.0", "ring", 2), Some(vec![2, 0]));
    }
}
