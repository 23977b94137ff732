//! lichess / python-chess comments: `[%eval 0.17] [%clk 0:00:30]`.

use super::{Dialect, MoveComment, Pov, parse_duration_ms, push_extra, set, set_eval};

pub(super) fn parse_lichess<'a>(t: &'a str, c: &mut MoveComment<'a>, extra: &mut String) {
    c.dialect = Some(Dialect::Lichess);
    let mut rest = t;
    while let Some(start) = rest.find("[%") {
        push_extra(extra, &rest[..start]);
        let Some(len) = rest[start..].find(']') else {
            break;
        };
        let body = &rest[start + 2..start + len];
        let whole = &rest[start..=start + len];
        rest = &rest[start + len + 1..];
        let (cmd, arg) = body.split_once(char::is_whitespace).unwrap_or((body, ""));
        let arg = arg.trim();
        let ok = match cmd {
            "eval" => {
                let (ev, depth) = arg.split_once(',').unwrap_or((arg, ""));
                // A depth its column cannot hold keeps the command in the text.
                let depth_read = depth.is_empty() || set(&mut c.depth, depth.trim().parse().ok());
                set_eval(c, ev.trim(), Pov::White) && depth_read
            }
            "clk" => set(&mut c.time_left_ms, parse_duration_ms(arg)),
            "emt" => set(&mut c.time_ms, parse_duration_ms(arg)),
            _ => false,
        };
        if !ok {
            push_extra(extra, whole);
        }
    }
    push_extra(extra, rest);
}

#[cfg(test)]
mod tests {
    use crate::comment::{Dialect, norm, p};

    #[test]
    fn lichess() {
        let (c, extra) = p("[%eval 0.17] [%clk 0:00:30]");
        assert_eq!(c.dialect, Some(Dialect::Lichess));
        assert_eq!(extra, "");
        assert_eq!(norm(&c, false).cp, Some(17));
        assert_eq!(c.time_left_ms, Some(30_000));
        let (c, _) = p("[%eval #-3]");
        assert_eq!(norm(&c, true).mate, Some(-3));
        let (c, _) = p("[%eval 0.35,20] [%emt 0:00:01.2] nice move");
        assert_eq!((c.depth, c.time_ms), (Some(20), Some(1200)));
        let (_, extra) = p("[%eval 0.35,20] [%emt 0:00:01.2] nice move");
        assert_eq!(extra, "nice move");
        let (c, _) = p("[%eval 1.5]");
        assert_eq!(norm(&c, true).cp, Some(150));
    }
}
