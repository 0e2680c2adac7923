
// The register's {{crc_width}} bits in reverse order: refin != refout.
function reflect(crc) {
  let reflected = 0;
  for (let bit = 0; bit < {{crc_width}}; bit++) {
    reflected = reflected * 2 + (crc & 1);
    crc >>>= 1;
  }
  return reflected;
}
