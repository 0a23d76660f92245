//! The one CSPRNG behind keys, serial numbers and bootstrap tokens: ring's `SystemRandom`.

use ring::rand::{SecureRandom, SystemRandom};
use rsa::rand_core::{self, CryptoRng, RngCore};

/// Fills `buf` from the operating system's generator.
pub(crate) fn fill(buf: &mut [u8]) -> Result<(), ring::error::Unspecified> {
    SystemRandom::new().fill(buf)
}

/// Adapts `SystemRandom` to the `rand_core` 0.6 traits the `rsa` crate wants, so RSA keys come
/// from the same generator as everything else instead of depending on `rand_core`'s optional
/// `getrandom` feature being switched on by some other crate.
pub(crate) struct RsaRng(SystemRandom);

impl RsaRng {
    pub(crate) fn new() -> Self {
        RsaRng(SystemRandom::new())
    }
}

impl RngCore for RsaRng {
    fn next_u32(&mut self) -> u32 {
        let mut b = [0u8; 4];
        self.fill_bytes(&mut b);
        u32::from_le_bytes(b)
    }

    fn next_u64(&mut self) -> u64 {
        let mut b = [0u8; 8];
        self.fill_bytes(&mut b);
        u64::from_le_bytes(b)
    }

    fn fill_bytes(&mut self, dest: &mut [u8]) {
        // The trait gives no way to report failure, and carrying on with unfilled bytes would
        // make a guessable key. Key generation catches this panic and returns PkiError::Random.
        if self.0.fill(dest).is_err() {
            panic!("the system random number generator failed");
        }
    }

    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand_core::Error> {
        self.0.fill(dest).map_err(|_| rand_core::Error::new("the system random number generator failed"))
    }
}

impl CryptoRng for RsaRng {}
