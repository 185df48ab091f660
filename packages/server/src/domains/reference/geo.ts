const EARTH_RADIUS_KM = 6371.0088;
const RAD = Math.PI / 180;

/** Great-circle distance in km (haversine, mean Earth radius). */
export function haversineKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLon = (lon2 - lon1) * RAD;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/**
 * Distance ranking over many points: coordinates pre-converted to radians with cos(lat) cached, and ranking
 * on the haversine term `a` (monotonic in distance) so the asin/sqrt run only for the rows returned.
 */
export class GeoIndex {
  private readonly lat: Float64Array;
  private readonly lon: Float64Array;
  private readonly cosLat: Float64Array;
  private readonly keys: Float64Array;

  constructor(points: readonly { latitude: number; longitude: number }[]) {
    this.lat = Float64Array.from(points, (p) => p.latitude * RAD);
    this.lon = Float64Array.from(points, (p) => p.longitude * RAD);
    this.cosLat = this.lat.map(Math.cos);
    this.keys = new Float64Array(points.length);
  }

  /** Haversine term per listed point (indexed by point; valid until the next call). */
  rankKeys(latDeg: number, lonDeg: number, docs: readonly number[]): Float64Array {
    const la = latDeg * RAD;
    const lo = lonDeg * RAD;
    const cosLa = Math.cos(la);
    for (const d of docs) {
      const s1 = Math.sin(((this.lat[d] as number) - la) / 2);
      const s2 = Math.sin(((this.lon[d] as number) - lo) / 2);
      this.keys[d] = s1 * s1 + cosLa * (this.cosLat[d] as number) * s2 * s2;
    }
    return this.keys;
  }

  /** Kilometres for a rank key. */
  km(key: number): number {
    return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(key)));
  }
}
