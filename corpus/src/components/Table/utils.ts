import type { ColumnProps, DataIndex, FixedPosition, RecordKey } from './Table';

/**
 * Read a (possibly nested) value from a record.
 *
 * getValueByDataIndex({ a: { b: 1 } }, ['a', 'b']) // => 1
 */
export function getValueByDataIndex(record: unknown, dataIndex: DataIndex | undefined): unknown {
    if (dataIndex === undefined || dataIndex === null || record === null || typeof record !== 'object') {
        return undefined;
    }
    const path = Array.isArray(dataIndex) ? dataIndex : [dataIndex];
    let current: unknown = record;
    for (const segment of path) {
        if (current === null || current === undefined) {
            return undefined;
        }
        current = (current as Record<string | number, unknown>)[segment];
    }
    return current;
}

/**
 * A column's key: explicit `key`, then `dataIndex` joined with dots, then
 * the provided fallback (its position among its siblings).
 */
export function getColumnKey(column: ColumnProps, fallback: string): string {
    if (column.key !== undefined && column.key !== null) {
        return String(column.key);
    }
    if (column.dataIndex !== undefined) {
        return Array.isArray(column.dataIndex) ? column.dataIndex.join('.') : String(column.dataIndex);
    }
    return fallback;
}

export const isLeafColumn = (column: ColumnProps): boolean => !column.children || column.children.length === 0;

/**
 * Leaf columns in display order. Group columns are replaced by their leaves.
 */
export function flattenColumns<R>(columns: ColumnProps<R>[]): ColumnProps<R>[] {
    return columns.reduce<ColumnProps<R>[]>((result, column) => {
        if (column.children && column.children.length > 0) {
            result.push(...flattenColumns(column.children));
        } else {
            result.push(column);
        }
        return result;
    }, []);
}

export function getColumnDepth(columns: ColumnProps[]): number {
    return columns.reduce((depth, column) => {
        const childDepth = column.children && column.children.length > 0 ? getColumnDepth(column.children) : 0;
        return Math.max(depth, childDepth + 1);
    }, 0);
}

export interface HeaderCell {
    column: ColumnProps;
    colSpan: number;
    rowSpan: number;
    isLeaf: boolean;
}

/**
 * Turn a column tree into header rows with `colSpan` / `rowSpan`, as needed
 * for grouped headers.
 */
export function buildHeaderRows(columns: ColumnProps[]): HeaderCell[][] {
    const depth = getColumnDepth(columns);
    const rows: HeaderCell[][] = Array.from({ length: depth }, () => []);

    const place = (list: ColumnProps[], level: number): number =>
        list.reduce((total, column) => {
            const leaf = isLeafColumn(column);
            const span = leaf ? 1 : place(column.children ?? [], level + 1);
            rows[level].push({
                column,
                colSpan: column.colSpan ?? span,
                rowSpan: leaf ? depth - level : 1,
                isLeaf: leaf,
            });
            return total + span;
        }, 0);

    place(columns, 0);
    return rows;
}

export const normalizeFixed = (fixed: FixedPosition | undefined): 'left' | 'right' | null =>
    fixed === true || fixed === 'left' ? 'left' : fixed === 'right' ? 'right' : null;

/**
 * Sticky offsets of fixed columns, in pixels, keyed by column key.
 * Widths that are not numbers count as zero, which is why fixed columns
 * need a numeric `width`.
 */
export function getFixedOffsets(leafColumns: ColumnProps[]): Record<string, { left?: number; right?: number }> {
    const offsets: Record<string, { left?: number; right?: number }> = {};
    let left = 0;
    leafColumns.forEach((column) => {
        if (normalizeFixed(column.fixed) === 'left') {
            offsets[String(column.key)] = { left };
            left += typeof column.width === 'number' ? column.width : 0;
        }
    });
    let right = 0;
    for (let index = leafColumns.length - 1; index >= 0; index -= 1) {
        const column = leafColumns[index];
        if (normalizeFixed(column.fixed) === 'right') {
            offsets[String(column.key)] = { right };
            right += typeof column.width === 'number' ? column.width : 0;
        }
    }
    return offsets;
}

export function shallowEqualKeys(a: ReadonlyArray<RecordKey>, b: ReadonlyArray<RecordKey>): boolean {
    if (a === b) {
        return true;
    }
    if (a.length !== b.length) {
        return false;
    }
    return a.every((key, index) => key === b[index]);
}

export function isSpanCell(value: unknown): value is { children: unknown; props: { rowSpan?: number; colSpan?: number } } {
    return (
        value !== null &&
        typeof value === 'object' &&
        'props' in (value as object) &&
        'children' in (value as object) &&
        !('$$typeof' in (value as object))
    );
}
