//! Player names as the TRF checks compare them: case, spaces and punctuation ignored
//! (as the archive checks compare names), accents folded too (`Müller` = `Muller`, as a
//! TRF written in ASCII and a broadcast in UTF-8 spell one player), and `Last, First`
//! against `First Last`.

/// The two keys of a name: its letters and digits in order (`carlsenmagnus`: what
/// the archive checks compare), and its words sorted (`carlsen magnus`: `Magnus
/// Carlsen` too). Two names are one player's when either key is equal. Empty keys
/// for a name without a letter or digit (`?`), which matches nothing.
pub(crate) fn keys(name: &str) -> (String, String) {
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    for c in name.chars() {
        if !fold(c, &mut word) && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    let joined = words.concat();
    words.sort();
    (joined, words.join(" "))
}

/// Writes a character as the keys hold it to `out`: a letter lower case without its
/// accent, a digit as it is; false, writing nothing, for anything else (a space,
/// punctuation: a word's end).
fn fold(c: char, out: &mut String) -> bool {
    if c.is_ascii() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        }
        return c.is_ascii_alphanumeric();
    }
    let base = match c {
        'À'..='Å' | 'à'..='å' | 'Ā'..='ą' => "a",
        'Æ' | 'æ' => "ae",
        'Ç' | 'ç' | 'Ć'..='č' => "c",
        'Ð' | 'ð' | 'Ď'..='đ' => "d",
        'È'..='Ë' | 'è'..='ë' | 'Ē'..='ě' => "e",
        'Ĝ'..='ģ' => "g",
        'Ĥ'..='ħ' => "h",
        'Ì'..='Ï' | 'ì'..='ï' | 'Ĩ'..='ı' => "i",
        'Ĳ' | 'ĳ' => "ij",
        'Ĵ' | 'ĵ' => "j",
        'Ķ' | 'ķ' | 'ĸ' => "k",
        'Ĺ'..='ł' => "l",
        'Ñ' | 'ñ' | 'Ń'..='ŋ' => "n",
        'Ò'..='Ö' | 'Ø' | 'ò'..='ö' | 'ø' | 'Ō'..='ő' => "o",
        'Œ' | 'œ' => "oe",
        'Ŕ'..='ř' => "r",
        'Ś'..='š' | 'Ș' | 'ș' => "s",
        'ß' => "ss",
        'Ţ'..='ŧ' | 'Ț' | 'ț' => "t",
        'Þ' | 'þ' => "th",
        'Ù'..='Ü' | 'ù'..='ü' | 'Ũ'..='ų' => "u",
        'Ŵ' | 'ŵ' => "w",
        'Ý' | 'ý' | 'ÿ' | 'Ŷ'..='Ÿ' => "y",
        'Ź'..='ž' => "z",
        c if c.is_alphanumeric() => {
            out.extend(c.to_lowercase());
            return true;
        }
        _ => return false,
    };
    out.push_str(base);
    true
}

#[cfg(test)]
mod tests {
    use super::keys;

    fn same(a: &str, b: &str) -> bool {
        let (a, b) = (keys(a), keys(b));
        !a.0.is_empty() && (a.0 == b.0 || a.1 == b.1)
    }

    #[test]
    fn names_compare_without_case_spaces_punctuation_and_accents() {
        assert!(same("Carlsen, Magnus", "carlsen,magnus"));
        assert!(same("Carlsen, Magnus", "Magnus Carlsen"));
        assert!(same("Ding, Liren", "Ding Liren"));
        assert!(same("van Foreest, Jorden", "Jorden van Foreest"));
        assert!(same("Vachier-Lagrave, Maxime", "Maxime Vachier Lagrave"));
        assert!(same("Ivanchuk, Vassily", "IVANCHUK, VASSILY"));
        assert!(same("Müller, Jürgen", "Muller, Jurgen"));
        assert!(same("Đukić, Nikola", "Dukic,Nikola"));
        assert!(same("Łukasz Błażej", "Lukasz Blazej"));
        assert!(same("DrNykterstein", "drnykterstein"));
        assert!(!same("Carlsen, M.", "Carlsen, Magnus"));
        assert!(!same("Carlsen, Magnus", "Carlsen, Henrik"));
        assert!(!same("?", "?"));
    }
}
