//! The safe `os` library upstream gives scripts (its lifted `oslib_safe`): `os.time` and
//! `os.date` only, with upstream's formats. Conditions a script stamps with `os.date` need them.

use jiff::{Span, Timestamp, Zoned, civil, tz::TimeZone};
use mlua::{Lua, Table, Value as LuaValue};

/// The `os` table.
pub(super) fn library(lua: &Lua) -> mlua::Result<Table> {
    let os = lua.create_table()?;
    os.raw_set("time", lua.create_function(time)?)?;
    os.raw_set("date", lua.create_function(date)?)?;
    Ok(os)
}

/// `os.time([table])`: now, or the table's local date and time, in Unix seconds.
fn time(_: &Lua, table: Option<Table>) -> mlua::Result<f64> {
    let Some(t) = table else {
        return Ok(Timestamp::now().as_second() as f64);
    };
    let field = |name: &str, default: i64| -> i64 {
        match t.raw_get::<LuaValue>(name) {
            Ok(LuaValue::Integer(n)) => n,
            Ok(LuaValue::Number(n)) => n as i64,
            _ => default,
        }
    };
    // Go's time.Date carries out-of-range parts over (month 13 is January of the next year,
    // day 0 the last of the previous month): the parts are added to the year's first instant.
    let out_of_range = |e: jiff::Error| mlua::Error::runtime(format!("os.time: {e}"));
    let year = i16::try_from(field("year", -1)).map_err(|_| mlua::Error::runtime("os.time: year out of range"))?;
    // One part at a time: a jiff span has one sign for all its units, and parts may differ.
    let parts = [
        Span::new().try_months(field("month", -1).saturating_sub(1)),
        Span::new().try_days(field("day", -1).saturating_sub(1)),
        Span::new().try_hours(field("hour", 12)),
        Span::new().try_minutes(field("min", 0)),
        Span::new().try_seconds(field("sec", 0)),
    ];
    let mut dt = civil::DateTime::new(year, 1, 1, 0, 0, 0, 0).map_err(out_of_range)?;
    for part in parts {
        dt = dt.checked_add(part.map_err(out_of_range)?).map_err(out_of_range)?;
    }
    let zoned = dt.to_zoned(TimeZone::system()).map_err(|e| mlua::Error::runtime(format!("os.time: {e}")))?;
    Ok(zoned.timestamp().as_second() as f64)
}

/// `os.date([format [, time]])`: `!` for UTC, `*t` for a table, else upstream's strftime.
fn date(lua: &Lua, (format, at): (Option<String>, Option<i64>)) -> mlua::Result<LuaValue> {
    let mut zone = TimeZone::system();
    let mut format = format.unwrap_or_else(|| "%c".to_string());
    if let Some(rest) = format.strip_prefix('!') {
        zone = TimeZone::UTC;
        format = rest.trim_start_matches('!').to_string();
    }
    let when = match at {
        // Upstream reads a given time in local time, `!` or not.
        Some(s) => {
            zone = TimeZone::system();
            Timestamp::from_second(s).map_err(|e| mlua::Error::runtime(format!("os.date: {e}")))?
        }
        None => Timestamp::now(),
    };
    let t = when.to_zoned(zone);
    if format.starts_with("*t") {
        let table = lua.create_table()?;
        table.raw_set("year", t.year())?;
        table.raw_set("month", t.month())?;
        table.raw_set("day", t.day())?;
        table.raw_set("hour", t.hour())?;
        table.raw_set("min", t.minute())?;
        table.raw_set("sec", t.second())?;
        table.raw_set("wday", t.weekday().to_sunday_one_offset())?;
        table.raw_set("yday", 0)?;
        table.raw_set("isdst", false)?;
        return Ok(LuaValue::Table(table));
    }
    Ok(LuaValue::String(lua.create_string(strftime(&t, &format))?))
}

/// Upstream's strftime: each `%x` it knows becomes a Go layout, `%%` a percent sign, and any
/// other directive is kept as written.
fn strftime(t: &Zoned, format: &str) -> String {
    let mut out = String::with_capacity(format.len() + 16);
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let Some(&flag) = chars.peek() else {
            out.push('%');
            break;
        };
        chars.next();
        let piece = match flag {
            '%' => "%".to_string(),
            // Upstream's table maps %a to the Go layout "mon", which Go prints as written.
            'a' => "mon".to_string(),
            'A' => t.strftime("%A").to_string(),
            'b' => t.strftime("%b").to_string(),
            'B' => t.strftime("%B").to_string(),
            'c' => t.strftime("%d %b %y %H:%M %Z").to_string(),
            'd' => t.strftime("%d").to_string(),
            'F' => t.strftime("%Y-%m-%d").to_string(),
            'H' => t.strftime("%H").to_string(),
            'I' => t.strftime("%I").to_string(),
            'm' => t.strftime("%m").to_string(),
            'M' => t.strftime("%M").to_string(),
            'p' => t.strftime("%p").to_string(),
            'P' => t.strftime("%P").to_string(),
            'S' => t.strftime("%S").to_string(),
            'x' => t.strftime("%H/%M/%S").to_string(),
            'X' => t.strftime("%H:%M:%S").to_string(),
            'y' => t.strftime("%y").to_string(),
            'Y' => t.strftime("%Y").to_string(),
            'z' => t.strftime("%z").to_string(),
            'Z' => t.strftime("%Z").to_string(),
            'w' => t.weekday().to_sunday_zero_offset().to_string(),
            other => format!("%{other}"),
        };
        out.push_str(&piece);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::strftime;

    #[test]
    fn os_time_carries_out_of_range_parts_over_as_go_does() {
        let lua = mlua::Lua::new();
        lua.globals().set("os", super::library(&lua).unwrap()).unwrap();
        let same = "return os.time({year = 2024, month = 13, day = 1, hour = 0}) == os.time({year = 2025, month = 1, day = 1, hour = 0}) \
                    and os.time({year = 2024, month = 3, day = 0, hour = 0}) == os.time({year = 2024, month = 2, day = 29, hour = 0}) \
                    and os.time({year = 2024, month = 1, day = 1, hour = 0, sec = 3600}) == os.time({year = 2024, month = 1, day = 1, hour = 1})";
        assert!(lua.load(same).eval::<bool>().unwrap());
        // Parts beyond any calendar are an error, not an overflow.
        let err = lua.load("return os.time({year = 2024, month = -1e300, day = 1})").eval::<f64>().unwrap_err();
        assert!(err.to_string().contains("os.time:"), "{err}");
    }

    #[test]
    fn upstream_formats_and_unknown_directives_kept() {
        let t: jiff::Zoned = "2024-03-05T07:08:09+00:00[UTC]".parse().unwrap();
        assert_eq!(strftime(&t, "%Y-%m-%dT%H:%M:%SZ"), "2024-03-05T07:08:09Z");
        assert_eq!(strftime(&t, "%q %% %w"), "%q % 2");
    }
}
