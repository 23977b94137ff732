//! Closed sets of named values the library offers (a grouping, an output
//! format, a rule set, a fitting method): each value's name, aliases and
//! one line of help, defined once beside the enum, for every surface that
//! lists them (the CLI's possible values, docs, Python). The library knows
//! no command-line parser: the binary turns a [`Choice`] into its flags.

/// A closed set of named values.
pub trait Choice: Copy + Eq + Send + Sync + 'static {
    /// Every value, in the order they are listed.
    const ALL: &'static [Self];
    /// The value's name on every surface.
    fn name(self) -> &'static str;
    /// One line of help (empty: none).
    fn help(self) -> &'static str {
        ""
    }
    /// Other spellings accepted for the value.
    fn aliases(self) -> &'static [&'static str] {
        &[]
    }
    /// The value with this name or alias.
    fn from_name(s: &str) -> Option<Self> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.name() == s || v.aliases().contains(&s))
    }
}

/// `Display` as the value's [`Choice::name`] (what a default is printed as).
#[macro_export]
macro_rules! display_choice {
    ($($t:ty),* $(,)?) => {$(
        impl std::fmt::Display for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str($crate::choice::Choice::name(*self))
            }
        }
    )*};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum Ab {
        A,
        B,
    }

    impl Choice for Ab {
        const ALL: &'static [Self] = &[Ab::A, Ab::B];
        fn name(self) -> &'static str {
            match self {
                Ab::A => "a",
                Ab::B => "b,c",
            }
        }
        fn aliases(self) -> &'static [&'static str] {
            match self {
                Ab::A => &["all"],
                Ab::B => &[],
            }
        }
    }
    display_choice!(Ab);

    #[test]
    fn names_and_aliases_find_their_value() {
        assert_eq!(Ab::from_name("a"), Some(Ab::A));
        assert_eq!(Ab::from_name("all"), Some(Ab::A));
        assert_eq!(Ab::from_name("b,c"), Some(Ab::B));
        assert_eq!(Ab::from_name("b"), None);
        assert_eq!(Ab::B.to_string(), "b,c");
    }
}
