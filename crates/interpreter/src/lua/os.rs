//! The safe `os` library upstream gives scripts (its lifted `oslib_safe`): `os.time` and
//! `os.date` only, with upstream's formats. Conditions a script stamps with `os.date` need them.

use jiff::{Timestamp, Zoned, civil, tz::TimeZone};
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
    // Go's time.Date normalises out-of-range parts; a date Go would carry over is refused.
    let part = |v: i64| i8::try_from(v).map_err(|_| mlua::Error::runtime("field out of range in os.time"));
    let year = i16::try_from(field("year", -1)).map_err(|_| mlua::Error::runtime("year out of range in os.time"))?;
    let dt = civil::DateTime::new(
        year,
        part(field("month", -1))?,
        part(field("day", -1))?,
        part(field("hour", 12))?,
        part(field("min", 0))?,
        part(field("sec", 0))?,
        0,
    )
    .map_err(|e| mlua::Error::runtime(format!("os.time: {e}")))?;
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
        Some(s) => Timestamp::from_second(s).map_err(|e| mlua::Error::runtime(format!("os.date: {e}")))?,
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
    fn upstream_formats_and_unknown_directives_kept() {
        let t: jiff::Zoned = "2024-03-05T07:08:09+00:00[UTC]".parse().unwrap();
        assert_eq!(strftime(&t, "%Y-%m-%dT%H:%M:%SZ"), "2024-03-05T07:08:09Z");
        assert_eq!(strftime(&t, "%q %% %w"), "%q % 2");
    }
}
