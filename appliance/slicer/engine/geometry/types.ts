/**
 * 2D geometry in millimetres. A polygon is a flat Float64Array of x,y pairs, closed implicitly
 * (the last point connects to the first). Outer contours run counter-clockwise, holes clockwise.
 * A polyline has the same layout but is open. Flat typed arrays cross worker threads cheaply.
 */
export type Polygon = Float64Array;
export type Polyline = Float64Array;

export interface ExPolygon {
  contour: Polygon;
  holes: Polygon[];
}

export interface BBox2 {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

export type JoinType = 'miter' | 'round' | 'square';
export type FillRule = 'nonzero' | 'evenodd' | 'positive';
