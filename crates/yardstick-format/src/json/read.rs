//! The reader: strict JSON, errors with the line and column.

use super::{Error, Json, Number};

/// Deeper nesting is refused (serde_json's limit: its 128th level is an
/// error), so hostile input cannot overflow the stack.
const MAX_DEPTH: usize = 127;

/// Parses one JSON value, surrounded by nothing but whitespace.
///
/// # Errors
///
/// What was expected, and the line and column where it was not found.
pub fn parse(text: &str) -> Result<Json, Error> {
    let mut r = Reader {
        text: text.as_bytes(),
        at: 0,
        depth: 0,
    };
    let value = r.value()?;
    r.skip_space();
    if r.at < r.text.len() {
        return Err(r.error("trailing characters"));
    }
    Ok(value)
}

struct Reader<'a> {
    text: &'a [u8],
    at: usize,
    depth: usize,
}

impl Reader<'_> {
    fn error(&self, what: &str) -> Error {
        let before = &self.text[..self.at.min(self.text.len())];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let column = self.at - line_start + 1;
        Error::new(format!("{what} at line {line} column {column}"))
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> bool {
        self.skip_space();
        let found = self.peek() == Some(byte);
        self.at += usize::from(found);
        found
    }

    fn literal(&mut self, word: &str, value: Json) -> Result<Json, Error> {
        if self.text[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(value)
        } else {
            Err(self.error("expected a value"))
        }
    }

    fn value(&mut self) -> Result<Json, Error> {
        self.skip_space();
        match self.peek() {
            None => Err(self.error("EOF while parsing a value")),
            Some(b'n') => self.literal("null", Json::Null),
            Some(b't') => self.literal("true", Json::Bool(true)),
            Some(b'f') => self.literal("false", Json::Bool(false)),
            Some(b'"') => self.string().map(Json::String),
            Some(b'[') => self.nested(Reader::array),
            Some(b'{') => self.nested(Reader::object),
            Some(b'-' | b'0'..=b'9') => self.number().map(Json::Number),
            Some(_) => Err(self.error("expected a value")),
        }
    }

    fn nested(&mut self, inner: fn(&mut Self) -> Result<Json, Error>) -> Result<Json, Error> {
        if self.depth == MAX_DEPTH {
            return Err(self.error("nested too deep"));
        }
        self.depth += 1;
        self.at += 1; // the opening bracket
        let value = inner(self);
        self.depth -= 1;
        value
    }

    fn array(&mut self) -> Result<Json, Error> {
        let mut items = Vec::new();
        if self.eat(b']') {
            return Ok(Json::Array(items));
        }
        loop {
            items.push(self.value()?);
            if self.eat(b']') {
                return Ok(Json::Array(items));
            }
            if !self.eat(b',') {
                return Err(self.error("expected `,` or `]`"));
            }
        }
    }

    fn object(&mut self) -> Result<Json, Error> {
        let mut members = Vec::new();
        if self.eat(b'}') {
            return Ok(Json::Object(members));
        }
        loop {
            self.skip_space();
            if self.peek() != Some(b'"') {
                return Err(self.error("expected a key in quotes"));
            }
            let key = self.string()?;
            if !self.eat(b':') {
                return Err(self.error("expected `:`"));
            }
            members.push((key, self.value()?));
            if self.eat(b'}') {
                return Ok(Json::Object(members));
            }
            if !self.eat(b',') {
                return Err(self.error("expected `,` or `}`"));
            }
        }
    }

    fn number(&mut self) -> Result<Number, Error> {
        let start = self.at;
        let digits = |r: &mut Self| {
            let from = r.at;
            while matches!(r.peek(), Some(b'0'..=b'9')) {
                r.at += 1;
            }
            r.at - from
        };
        let negative = self.peek() == Some(b'-');
        self.at += usize::from(negative);
        let whole_start = self.at;
        let whole = digits(self);
        if whole == 0 {
            return Err(self.error("invalid number"));
        }
        if whole > 1 && self.text[whole_start] == b'0' {
            self.at = whole_start + 1;
            return Err(self.error("invalid number"));
        }
        let mut integer = true;
        if self.peek() == Some(b'.') {
            self.at += 1;
            integer = false;
            if digits(self) == 0 {
                return Err(self.error("invalid number"));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            integer = false;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if digits(self) == 0 {
                return Err(self.error("invalid number"));
            }
        }
        // The slice holds ASCII digits and signs only.
        let text = std::str::from_utf8(&self.text[start..self.at]).unwrap_or("");
        let exact = match (integer, negative) {
            (true, false) => text.parse().ok().map(Number::Unsigned),
            (true, true) => text.parse().ok().map(Number::Signed),
            (false, _) => None,
        };
        match exact {
            Some(n) => Ok(n),
            // Past f64's range (`1e400`) is an error, not an infinity: no
            // JSON number is infinite (RFC 8259 §6; serde_json refuses it).
            None => match text.parse::<f64>() {
                Ok(x) if x.is_finite() => Ok(Number::Float(x)),
                Ok(_) => Err(self.error("number out of range")),
                Err(_) => Err(self.error("invalid number")),
            },
        }
    }

    fn string(&mut self) -> Result<String, Error> {
        self.at += 1; // the opening quote
        let mut out = String::new();
        loop {
            let run = self.at;
            while !matches!(self.peek(), None | Some(b'"' | b'\\' | 0..=0x1f)) {
                self.at += 1;
            }
            // The input is a &str and the run stops only at ASCII bytes, so
            // it is whole characters.
            out.push_str(std::str::from_utf8(&self.text[run..self.at]).unwrap_or(""));
            match self.peek() {
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.at += 1;
                    out.push(self.escape()?);
                }
                Some(_) => return Err(self.error("control character in a string")),
                None => return Err(self.error("EOF while parsing a string")),
            }
        }
    }

    fn escape(&mut self) -> Result<char, Error> {
        let c = self
            .peek()
            .ok_or_else(|| self.error("EOF while parsing a string"))?;
        if !matches!(
            c,
            b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' | b'u'
        ) {
            return Err(self.error("invalid escape"));
        }
        self.at += 1;
        Ok(match c {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            _ => return self.unicode_escape(),
        })
    }

    fn hex4(&mut self) -> Result<u32, Error> {
        // Four hex digits exactly: `from_str_radix` alone also takes a sign
        // (`\u+041` read as `A`).
        let digits = self
            .text
            .get(self.at..self.at + 4)
            .filter(|h| h.iter().all(u8::is_ascii_hexdigit))
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u32::from_str_radix(h, 16).ok())
            .ok_or_else(|| self.error("invalid \\u escape"))?;
        self.at += 4;
        Ok(digits)
    }

    fn unicode_escape(&mut self) -> Result<char, Error> {
        let first = self.hex4()?;
        let code = if (0xD800..0xDC00).contains(&first) {
            if !self.text[self.at..].starts_with(b"\\u") {
                return Err(self.error("lone leading surrogate"));
            }
            self.at += 2;
            let second = self.hex4()?;
            if !(0xDC00..0xE000).contains(&second) {
                return Err(self.error("invalid trailing surrogate"));
            }
            0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
        } else {
            first
        };
        char::from_u32(code).ok_or_else(|| self.error("invalid \\u escape"))
    }
}
