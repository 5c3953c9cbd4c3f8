//! "Did you mean" suggestions for mistyped ids, parameter names and keys.

/// The candidate nearest to `word`: a case-insensitive match first, else the
/// closest by Damerau-Levenshtein distance when it is at most a third of the
/// longer name's length (at least 1), else `None`.
///
/// ```
/// use friction_models::suggest::nearest;
/// assert_eq!(nearest("LuGre", ["coulomb", "lugre"]), Some("lugre"));
/// assert_eq!(nearest("fcc", ["fc", "fs", "vs"]), Some("fc"));
/// assert_eq!(nearest("zzzzzz", ["fc", "fs"]), None);
/// ```
pub fn nearest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let cands: Vec<&str> = candidates.into_iter().collect();
    if let Some(c) = cands.iter().find(|c| c.eq_ignore_ascii_case(word)) {
        return Some(c);
    }
    let lower = word.to_ascii_lowercase();
    cands
        .iter()
        .map(|c| (strsim::damerau_levenshtein(&lower, &c.to_ascii_lowercase()), *c))
        .filter(|(d, c)| *d <= (word.chars().count().max(c.chars().count()) / 3).max(1))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// ` (did you mean "NAME"?)` for the nearest candidate, or an empty string.
pub fn did_you_mean<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    nearest(word, candidates).map(|c| format!(" (did you mean \"{c}\"?)")).unwrap_or_default()
}
