//! The protobuf wire format: field keys, varints, fixed-width and length-delimited values.

use super::ProtobufError;

/// One field value as it appears on the wire, before the schema gives it a meaning.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum WireValue<'a> {
    /// Wire type 0.
    Varint(u64),
    /// Wire type 1.
    Fixed64(u64),
    /// Wire type 2: strings, bytes, embedded messages, packed repeated scalars.
    Bytes(&'a [u8]),
    /// Wire type 5.
    Fixed32(u32),
}

impl WireValue<'_> {
    /// The wire type's name, for error messages.
    pub(super) fn name(&self) -> &'static str {
        match self {
            WireValue::Varint(_) => "varint",
            WireValue::Fixed64(_) => "fixed64",
            WireValue::Bytes(_) => "length-delimited",
            WireValue::Fixed32(_) => "fixed32",
        }
    }
}

/// Reads the fields of one message in order.
pub(super) struct Reader<'a> {
    buf: &'a [u8],
}

impl<'a> Reader<'a> {
    pub(super) fn new(buf: &'a [u8]) -> Self {
        Reader { buf }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], ProtobufError> {
        if n > self.buf.len() {
            return Err(ProtobufError::Truncated);
        }
        let (head, rest) = self.buf.split_at(n);
        self.buf = rest;
        Ok(head)
    }

    /// A base-128 varint of at most 10 bytes.
    pub(super) fn varint(&mut self) -> Result<u64, ProtobufError> {
        let mut value = 0u64;
        for i in 0..10 {
            let [byte] = self.take(1)? else { return Err(ProtobufError::Truncated) };
            value |= u64::from(byte & 0x7f) << (7 * i);
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(ProtobufError::VarintOverflow)
    }

    /// The next field's number and value; `None` at the end of the message.
    pub(super) fn field(&mut self) -> Option<Result<(u32, WireValue<'a>), ProtobufError>> {
        if self.buf.is_empty() {
            return None;
        }
        Some(self.read_field())
    }

    fn read_field(&mut self) -> Result<(u32, WireValue<'a>), ProtobufError> {
        let key = self.varint()?;
        let number = key >> 3;
        // Field numbers are 1..2^29-1; groups (wire types 3 and 4) are proto2 features the
        // Kubernetes types never use.
        if number == 0 || number >= 1 << 29 {
            return Err(ProtobufError::InvalidKey(key));
        }
        let value = match key & 7 {
            0 => WireValue::Varint(self.varint()?),
            1 => WireValue::Fixed64(u64::from_le_bytes(self.fixed()?)),
            2 => {
                let len = usize::try_from(self.varint()?).map_err(|_| ProtobufError::Truncated)?;
                WireValue::Bytes(self.take(len)?)
            }
            5 => WireValue::Fixed32(u32::from_le_bytes(self.fixed()?)),
            _ => return Err(ProtobufError::InvalidKey(key)),
        };
        // `number` < 2^29 was checked above, so it fits.
        Ok((number as u32, value))
    }

    fn fixed<const N: usize>(&mut self) -> Result<[u8; N], ProtobufError> {
        let bytes = self.take(N)?;
        let mut out = [0u8; N];
        out.copy_from_slice(bytes);
        Ok(out)
    }
}

impl<'a> Iterator for Reader<'a> {
    type Item = Result<(u32, WireValue<'a>), ProtobufError>;

    fn next(&mut self) -> Option<Self::Item> {
        let item = self.field();
        if matches!(item, Some(Err(_))) {
            // Stop after an error: the rest of the buffer has no known framing.
            self.buf = &[];
        }
        item
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_each_wire_type() {
        // 1: varint 300, 2: bytes "hi", 3: fixed64 1, 4: fixed32 2.
        let buf = [0x08, 0xac, 0x02, 0x12, 2, b'h', b'i', 0x19, 1, 0, 0, 0, 0, 0, 0, 0, 0x25, 2, 0, 0, 0];
        let fields: Vec<_> = Reader::new(&buf).collect::<Result<_, _>>().unwrap();
        assert_eq!(
            fields,
            [
                (1, WireValue::Varint(300)),
                (2, WireValue::Bytes(b"hi")),
                (3, WireValue::Fixed64(1)),
                (4, WireValue::Fixed32(2))
            ]
        );
    }

    #[test]
    fn rejects_bad_framing() {
        assert_eq!(Reader::new(&[0x12, 5, b'a']).next(), Some(Err(ProtobufError::Truncated)));
        assert_eq!(Reader::new(&[0x00]).next(), Some(Err(ProtobufError::InvalidKey(0))));
        assert_eq!(Reader::new(&[0x0b]).next(), Some(Err(ProtobufError::InvalidKey(0x0b))));
        assert_eq!(Reader::new(&[0x08, 0x80]).next(), Some(Err(ProtobufError::Truncated)));
        assert_eq!(
            Reader::new(&[0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 1]).next(),
            Some(Err(ProtobufError::VarintOverflow))
        );
    }
}
