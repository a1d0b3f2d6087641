/**
 * Table renders structured, row-based data. It owns sorting, filtering,
 * pagination, row selection, row expansion and column resizing, and can
 * delegate all of them to a remote `request` function.
 *
 * Most state can be controlled (pass `sortOrder`, `filteredValue`,
 * `rowSelection.selectedRowKeys`, `expandable.expandedRowKeys`,
 * `pagination.currentPage`) or left to the component.
 */
import React from 'react';
import { cls } from '../_utils/classNames';
import { warning } from '../_utils/warning';
import { debounce } from '../_utils/debounce';
import { ConfigContext } from '../_utils/ConfigContext';
import type { ConfigContextValue } from '../_utils/ConfigContext';
import Pagination from '../Pagination';
import type { PaginationProps } from '../Pagination';
import Spin from '../Spin';
import Checkbox from '../Checkbox';
import TableHeader from './TableHeader';
import TableBody from './TableBody';
import { cssClasses, numbers, strings } from './constants';
import { flattenColumns, getColumnKey, getValueByDataIndex, isLeafColumn, shallowEqualKeys } from './utils';
import './table.scss';

const prefixCls = cssClasses.PREFIX;

/* -------------------------------------------------------------------------- */
/*                                    Types                                   */
/* -------------------------------------------------------------------------- */

export type RecordKey = string | number;

export type SortOrder = 'ascend' | 'descend' | false;

export type ColumnAlign = 'left' | 'center' | 'right';

export type FixedPosition = boolean | 'left' | 'right';

export type DataIndex = string | number | ReadonlyArray<string | number>;

export type FilterValue = Array<string | number | boolean>;

export type CompareFn<R> = (a: R, b: R, order: Exclude<SortOrder, false>) => number;

export type RowKeyGetter<R> = string | ((record: R) => RecordKey);

export type ScrollPosition = 'none' | 'left' | 'middle' | 'right';

export enum TableSize {
    Small = 'small',
    Middle = 'middle',
    Default = 'default',
}

export enum SelectionType {
    Checkbox = 'checkbox',
    Radio = 'radio',
}

export enum ChangeAction {
    Paginate = 'paginate',
    Sort = 'sort',
    Filter = 'filter',
    Reload = 'reload',
}

export interface CellSpanProps {
    /** Number of rows the cell spans. `0` hides the cell. */
    rowSpan?: number;
    /** Number of columns the cell spans. `0` hides the cell. */
    colSpan?: number;
}

export type RenderedCell = React.ReactNode | { children: React.ReactNode; props: CellSpanProps };

export interface ColumnFilterItem {
    /** Label shown in the filter dropdown. */
    text: React.ReactNode;
    /** Value collected into `filteredValue` and passed to `onFilter`. */
    value: string | number | boolean;
    /** Nested options, rendered as a sub-menu of the dropdown. */
    children?: ColumnFilterItem[];
}

export interface FilterDropdownProps {
    /** Values currently ticked in the dropdown (not yet applied). */
    selectedKeys: FilterValue;
    /** Replace the ticked values without applying them. */
    setSelectedKeys: (keys: FilterValue) => void;
    /** Apply the ticked values. The dropdown closes unless `closeDropdown` is `false`. */
    confirm: (options?: { closeDropdown?: boolean }) => void;
    /** Clear the ticked and applied values of this column. */
    clearFilters: () => void;
    /** The column's `filters`, for custom dropdowns that still want the options. */
    filters: ColumnFilterItem[];
    /** Whether the dropdown is open. */
    visible: boolean;
}

export interface SorterConfig<R> {
    /** Comparison function; receives the sort direction as third argument. */
    compare: CompareFn<R>;
    /**
     * Priority when several columns are sorted at once. Higher values are
     * compared first. Columns without `multiple` sort exclusively.
     */
    multiple?: number;
}

export interface SorterState {
    columnKey: string;
    order: Exclude<SortOrder, false>;
    multiple?: number;
}

/**
 * Presentation props shared by every column, leaf or group.
 */
interface BaseColumnProps {
    /** Unique key of the column. Falls back to `dataIndex` when omitted. */
    key?: React.Key;
    /** Header content. A function receives the current sort and filter state. */
    title?: React.ReactNode | ((info: { sortOrder: SortOrder; filtered: boolean }) => React.ReactNode);
    /** Class name added to every cell of the column. */
    className?: string;
    /**
     * Horizontal alignment of header and body cells.
     * @default 'left'
     */
    align?: ColumnAlign;
    /** Column width. Required for fixed columns and for resizing. */
    width?: number | string;
    /**
     * Smallest width the column can be dragged to when `resizable` is on.
     * @default 48
     */
    minWidth?: number;
    /**
     * Pin the column to the left or right edge while scrolling horizontally.
     * `true` is the same as `'left'`.
     * @default false
     */
    fixed?: FixedPosition;
    /** Hide the column without removing it from `columns`. */
    hidden?: boolean;
    /** Number of header cells this column's title spans. */
    colSpan?: number;
}

/**
 * A column definition. Group columns set `children` instead of `dataIndex`.
 */
export interface ColumnProps<R = any> extends BaseColumnProps {
    /**
     * Path of the value in the record. Use an array for nested fields,
     * for example `['address', 'city']`.
     */
    dataIndex?: DataIndex;
    /** Custom cell renderer. Return `{ children, props }` to span cells. */
    render?: (value: any, record: R, index: number) => RenderedCell;
    /**
     * Truncate overflowing text with an ellipsis. `showTitle` adds a native
     * tooltip with the full text.
     * @default false
     */
    ellipsis?: boolean | { showTitle?: boolean };
    /**
     * Enable sorting. `true` uses the built-in comparator on `dataIndex`;
     * a function or `{ compare, multiple }` customises it.
     */
    sorter?: boolean | CompareFn<R> | SorterConfig<R>;
    /** Controlled sort order of this column. */
    sortOrder?: SortOrder;
    /** Initial sort order when `sortOrder` is not controlled. */
    defaultSortOrder?: SortOrder;
    /**
     * Order in which clicks cycle through directions.
     * @default ['ascend', 'descend']
     */
    sortDirections?: Array<Exclude<SortOrder, false>>;
    /** Options of the filter dropdown. */
    filters?: ColumnFilterItem[];
    /** Controlled filter values of this column. */
    filteredValue?: FilterValue | null;
    /** Initial filter values when `filteredValue` is not controlled. */
    defaultFilteredValue?: FilterValue;
    /**
     * Allow more than one filter option to be ticked.
     * @default true
     */
    filterMultiple?: boolean;
    /** Decide whether a record passes a ticked filter value. */
    onFilter?: (value: string | number | boolean, record: R) => boolean;
    /** Replace the built-in filter dropdown. */
    filterDropdown?: React.ReactNode | ((props: FilterDropdownProps) => React.ReactNode);
    /** Replace the funnel icon in the header. */
    filterIcon?: React.ReactNode | ((filtered: boolean) => React.ReactNode);
    /** Let users drag this column's right edge. Overrides the table-level `resizable`. */
    resizable?: boolean;
    /** Extra attributes for each body cell, including `rowSpan` / `colSpan`. */
    onCell?: (record: R, index: number) => React.TdHTMLAttributes<HTMLTableCellElement> & CellSpanProps;
    /** Extra attributes for the header cell. */
    onHeaderCell?: (column: ColumnProps<R>) => React.ThHTMLAttributes<HTMLTableCellElement>;
    /** Sub-columns. A column with children renders as a grouped header. */
    children?: ColumnProps<R>[];
}

export interface RowSelection<R = any> {
    /**
     * Checkbox for multiple selection, radio for single selection.
     * @default 'checkbox'
     */
    type?: SelectionType | 'checkbox' | 'radio';
    /** Controlled keys of the selected rows. */
    selectedRowKeys?: RecordKey[];
    /** Initially selected keys when `selectedRowKeys` is not controlled. */
    defaultSelectedRowKeys?: RecordKey[];
    /** Called whenever the selection changes. */
    onChange?: (selectedRowKeys: RecordKey[], selectedRows: R[]) => void;
    /** Called when a single row is ticked or unticked. */
    onSelect?: (record: R, selected: boolean, selectedRows: R[], event: React.ChangeEvent<HTMLInputElement>) => void;
    /** Called when the header checkbox is toggled. */
    onSelectAll?: (selected: boolean, selectedRows: R[], changedRows: R[]) => void;
    /** Props for each row's checkbox, typically `{ disabled: true }`. */
    getCheckboxProps?: (record: R) => { disabled?: boolean; name?: string; 'aria-label'?: string };
    /**
     * Pin the selection column to the left edge.
     * @default false
     */
    fixed?: boolean;
    /**
     * Hide the "select all" checkbox in the header.
     * @default false
     */
    hideSelectAll?: boolean;
    /** Header content of the selection column, replacing the checkbox. */
    columnTitle?: React.ReactNode;
    /**
     * Width of the selection column.
     * @default 48
     */
    columnWidth?: number;
    /**
     * Keep keys of rows that are no longer in `dataSource` (for example
     * after a remote page change).
     * @default false
     */
    preserveSelectedRowKeys?: boolean;
}

export interface ExpandIconProps<R = any> {
    expanded: boolean;
    expandable: boolean;
    record: R;
    onExpand: (record: R, event: React.MouseEvent<HTMLElement>) => void;
}

export interface ExpandableConfig<R = any> {
    /** Content of the expanded area below a row. */
    expandedRowRender?: (record: R, index: number, expanded: boolean) => React.ReactNode;
    /** Whether a given row can be expanded. */
    rowExpandable?: (record: R) => boolean;
    /** Controlled keys of the expanded rows. */
    expandedRowKeys?: RecordKey[];
    /** Initially expanded keys when `expandedRowKeys` is not controlled. */
    defaultExpandedRowKeys?: RecordKey[];
    /**
     * Expand every row on first render.
     * @default false
     */
    defaultExpandAllRows?: boolean;
    /**
     * Toggle expansion by clicking anywhere on the row.
     * @default false
     */
    expandRowByClick?: boolean;
    /** Custom expand icon. */
    expandIcon?: (props: ExpandIconProps<R>) => React.ReactNode;
    /** Called when a row is expanded or collapsed. */
    onExpand?: (expanded: boolean, record: R) => void;
    /** Called with the full list of expanded keys after each change. */
    onExpandedRowsChange?: (expandedKeys: RecordKey[]) => void;
}

export interface TablePaginationConfig extends Omit<PaginationProps, 'onChange' | 'total'> {
    /**
     * Where the pager is rendered relative to the table.
     * @default 'bottomRight'
     */
    position?: 'topLeft' | 'topRight' | 'bottomLeft' | 'bottomRight' | 'both';
    /** Total number of rows. Defaults to the length of the filtered data. */
    total?: number;
    /** Controlled current page, 1-based. */
    currentPage?: number;
    /** Called when the page or page size changes. */
    onChange?: (currentPage: number, pageSize: number) => void;
}

export interface TableScrollConfig {
    /** Scroll horizontally when the content is wider than this value. */
    x?: number | string | true;
    /** Fix the header and scroll the body vertically past this height. */
    y?: number | string;
    /**
     * Jump back to the top of the body after paging, sorting or filtering.
     * @default true
     */
    scrollToFirstRowOnChange?: boolean;
}

export interface TableScrollToOptions {
    /** Row index within the current page. */
    index?: number;
    /** Key of the row to scroll to. */
    key?: RecordKey;
    /** Absolute offset in pixels. */
    top?: number;
    /** @default 'auto' */
    behavior?: ScrollBehavior;
}

export interface TableChangeInfo<R = any> {
    action: ChangeAction;
    pagination: { currentPage: number; pageSize: number };
    filters: Record<string, FilterValue>;
    sorter: SorterState | SorterState[] | null;
    /** Rows after filtering and sorting, before paging. */
    extra: { currentDataSource: R[] };
}

export interface TableRequestParams {
    currentPage: number;
    pageSize: number;
    sorters: SorterState[];
    filters: Record<string, FilterValue>;
}

export interface TableRequestResult<R> {
    data: R[];
    total: number;
}

export type TableRequest<R> = (params: TableRequestParams, signal: AbortSignal) => Promise<TableRequestResult<R>>;

export interface TableLocale {
    emptyText: string;
    filterConfirm: string;
    filterReset: string;
    selectAll: string;
    selectRow: string;
    expand: string;
    collapse: string;
    sortAscend: string;
    sortDescend: string;
    cancelSort: string;
}

/**
 * Props that only affect the outer container.
 */
interface TableStyleProps {
    /** Class name of the outer wrapper. */
    className?: string;
    /** Inline style of the outer wrapper. */
    style?: React.CSSProperties;
    /** `id` of the outer wrapper. */
    id?: string;
    /** Accessible name of the table, announced by screen readers. */
    'aria-label'?: string;
}

export interface TableProps<R = any> extends TableStyleProps {
    /** Column definitions. */
    columns?: ColumnProps<R>[];
    /** Rows to render. Ignored when `request` is set. */
    dataSource?: R[];
    /**
     * Field name or function returning a unique key for each row.
     * @default 'key'
     */
    rowKey?: RowKeyGetter<R>;
    /**
     * Row density.
     * @default 'default'
     */
    size?: TableSize | 'small' | 'middle' | 'default';
    /**
     * Draw borders around every cell.
     * @default false
     */
    bordered?: boolean;
    /**
     * Shade every other row.
     * @default false
     */
    striped?: boolean;
    /**
     * Show a loading overlay. Managed automatically when `request` is set.
     * @default false
     */
    loading?: boolean;
    /**
     * Paging configuration, or `false` to render every row.
     * @default true
     */
    pagination?: boolean | TablePaginationConfig;
    /** Enable row selection. */
    rowSelection?: RowSelection<R>;
    /** Enable expandable rows. */
    expandable?: ExpandableConfig<R>;
    /** Scroll area configuration. */
    scroll?: TableScrollConfig;
    /**
     * Keep the header visible while the page scrolls.
     * @default false
     */
    sticky?: boolean | { offsetHeader?: number; getContainer?: () => HTMLElement | Window };
    /**
     * Render only the visible rows. Requires `scroll.y`.
     * @default false
     */
    virtualized?: boolean | { itemSize?: number; overscan?: number };
    /**
     * Let users drag column edges to change widths.
     * @default false
     */
    resizable?: boolean;
    /**
     * Show the header row.
     * @default true
     */
    showHeader?: boolean;
    /** Content above the table. */
    title?: React.ReactNode | ((pageData: R[]) => React.ReactNode);
    /** Content below the table. */
    footer?: React.ReactNode | ((pageData: R[]) => React.ReactNode);
    /** Summary rows rendered at the end of the body. */
    summary?: (pageData: R[]) => React.ReactNode;
    /** Content shown when there are no rows. */
    empty?: React.ReactNode;
    /**
     * Field that holds child rows of tree data.
     * @default 'children'
     */
    childrenColumnName?: string;
    /**
     * Indentation per tree level, in pixels.
     * @default 16
     */
    indentSize?: number;
    /**
     * Default sort directions for every sortable column.
     * @default ['ascend', 'descend']
     */
    sortDirections?: Array<Exclude<SortOrder, false>>;
    /** Load rows from a server. Table then manages paging, sorting and filtering state itself. */
    request?: TableRequest<R>;
    /** Override any of the built-in strings. */
    locale?: Partial<TableLocale>;
    /** Class name for each row. */
    rowClassName?: string | ((record: R, index: number) => string);
    /** Extra attributes and handlers for each body row. */
    onRow?: (record: R, index: number) => React.HTMLAttributes<HTMLTableRowElement>;
    /** Extra attributes and handlers for each header row. */
    onHeaderRow?: (columns: ColumnProps<R>[], index: number) => React.HTMLAttributes<HTMLTableRowElement>;
    /** Called after paging, sorting, filtering or a reload. */
    onChange?: (info: TableChangeInfo<R>) => void;
    /** Called after a column is resized, with its final width. */
    onColumnResize?: (columnKey: string, width: number) => void;
    /** Called when the body scrolls. */
    onScroll?: (event: React.UIEvent<HTMLDivElement>) => void;
    /** Column definitions written as `<Table.Column>` children. */
    children?: React.ReactNode;
}

export interface TableState<R = any> {
    sorters: SorterState[];
    filters: Record<string, FilterValue>;
    currentPage: number;
    pageSize: number;
    selectedRowKeys: RecordKey[];
    expandedRowKeys: RecordKey[];
    columnWidths: Record<string, number>;
    remoteData: R[] | null;
    remoteTotal: number;
    remoteLoading: boolean;
    scrollPosition: ScrollPosition;
    prevColumns?: ColumnProps<R>[];
}

/**
 * Imperative API exposed through `ref`.
 */
export interface TableRef<R = any> {
    /** Re-run `request` with the current paging, sorting and filtering state. */
    reload(): Promise<void>;
    /** Scroll the body so the row at `index` (within the current page) is visible. */
    scrollTo(index: number): void;
    /** Scroll the body to a row key or an absolute offset. */
    scrollTo(options: TableScrollToOptions): void;
    /** Rows of the current page after filtering, sorting and paging. */
    getCurrentPageData(): R[];
    /** Clear the filters of one column, or of every column when `columnKey` is omitted. */
    clearFilters(columnKey?: React.Key): void;
    /** Clear every sorter. */
    clearSorters(): void;
}

export interface FlatRow<R> {
    record: R;
    key: RecordKey;
    depth: number;
    index: number;
    parentKey: RecordKey | null;
}

/* -------------------------------------------------------------------------- */
/*                                   Helpers                                  */
/* -------------------------------------------------------------------------- */

export const defaultLocale: TableLocale = {
    emptyText: 'No data',
    filterConfirm: 'OK',
    filterReset: 'Reset',
    selectAll: 'Select all rows',
    selectRow: 'Select row',
    expand: 'Expand row',
    collapse: 'Collapse row',
    sortAscend: 'Click to sort ascending',
    sortDescend: 'Click to sort descending',
    cancelSort: 'Click to cancel sorting',
};

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

const isSortOrder = (value: unknown): value is SortOrder => value === 'ascend' || value === 'descend' || value === false;

const toArray = <T,>(value: T | T[] | null | undefined): T[] => (value == null ? [] : Array.isArray(value) ? value : [value]);

const isFunction = (value: unknown): value is (...args: any[]) => any => typeof value === 'function';

/**
 * Resolve the key of a row. Warns once per table when the key is missing,
 * because selection and expansion silently break without it.
 */
const resolveRowKey = function <R>(record: R, rowKey: RowKeyGetter<R> | undefined, index: number): RecordKey {
    if (isFunction(rowKey)) {
        return rowKey(record);
    }
    const field = rowKey ?? strings.DEFAULT_ROW_KEY;
    const value = (record as Record<string, unknown>)[field];
    if (value === undefined || value === null) {
        warning(false, `[my-design] Table: each record should have a unique "${field}". Falling back to the row index.`);
        return index;
    }
    return value as RecordKey;
};

/**
 * Width of the native vertical scrollbar. Measured once and cached, since
 * it only changes when the user switches OS settings.
 */
const measureScrollbar = function measureScrollbarWidth(): number {
    if (typeof document === 'undefined') {
        return 0;
    }
    if (scrollbarWidthCache !== null) {
        return scrollbarWidthCache;
    }
    const probe = document.createElement('div');
    probe.style.cssText = 'position:absolute;top:-9999px;width:50px;height:50px;overflow:scroll;';
    document.body.appendChild(probe);
    scrollbarWidthCache = probe.offsetWidth - probe.clientWidth;
    document.body.removeChild(probe);
    return scrollbarWidthCache;
};

let scrollbarWidthCache: number | null = null;

/** Monotonic clock for timing remote requests; falls back to `Date.now()` outside browsers. */
const now = function () {
    return typeof performance !== 'undefined' ? performance.now() : Date.now();
};

/**
 * Built-in comparator used when `sorter: true`. Numbers and dates compare
 * numerically, strings with the user's locale, and empty values always
 * sort last regardless of the direction.
 */
function compareValues(a: unknown, b: unknown): number {
    const aEmpty = a === null || a === undefined || a === '';
    const bEmpty = b === null || b === undefined || b === '';
    if (aEmpty || bEmpty) {
        return aEmpty === bEmpty ? 0 : aEmpty ? 1 : -1;
    }
    if (typeof a === 'number' && typeof b === 'number') {
        return a - b;
    }
    if (a instanceof Date && b instanceof Date) {
        return a.getTime() - b.getTime();
    }
    if (typeof a === 'boolean' && typeof b === 'boolean') {
        return Number(a) - Number(b);
    }
    return String(a).localeCompare(String(b), undefined, { numeric: true, sensitivity: 'base' });
}

const getSorterConfig = <R,>(column: ColumnProps<R>): SorterConfig<R> | null => {
    const { sorter, dataIndex } = column;
    if (!sorter) {
        return null;
    }
    if (isFunction(sorter)) {
        return { compare: sorter };
    }
    if (typeof sorter === 'object') {
        return sorter;
    }
    return {
        compare: (a: R, b: R) => compareValues(getValueByDataIndex(a, dataIndex), getValueByDataIndex(b, dataIndex)),
    };
};

/**
 * Merge `columns` with `<Table.Column>` children, assign stable keys and
 * drop hidden columns. Children are appended after `columns`.
 */
export function normalizeColumns<R>(columns: ColumnProps<R>[] | undefined, children: React.ReactNode): ColumnProps<R>[] {
    function fromChildren(nodes: React.ReactNode): ColumnProps<R>[] {
        const result: ColumnProps<R>[] = [];
        React.Children.forEach(nodes, (node) => {
            if (!React.isValidElement(node)) {
                return;
            }
            const { children: nested, ...rest } = node.props as ColumnProps<R> & { children?: React.ReactNode };
            const column: ColumnProps<R> = { ...rest, key: node.key ?? rest.key };
            if (nested) {
                column.children = fromChildren(nested as React.ReactNode);
            }
            result.push(column);
        });
        return result;
    }

    function assignKeys(list: ColumnProps<R>[], parentKey: string): ColumnProps<R>[] {
        return list
            .filter((column) => !column.hidden)
            .map((column, index) => {
                const key = getColumnKey(column, `${parentKey}${index}`);
                const next: ColumnProps<R> = { ...column, key };
                if (column.children && column.children.length > 0) {
                    next.children = assignKeys(column.children, `${key}-`);
                }
                return next;
            });
    }

    const merged = [...(columns ?? []), ...fromChildren(children)];
    return assignKeys(merged, '');
}

/**
 * Build a predicate that keeps a record only when it passes every active
 * column filter.
 */
function createFilterPredicate<R>(columns: ColumnProps<R>[], filters: Record<string, FilterValue>) {
    function matchColumn(column: ColumnProps<R>) {
        const key = String(column.key);
        const values = filters[key];
        if (!values || values.length === 0) {
            return null;
        }
        const onFilter = column.onFilter;
        if (!onFilter) {
            return (record: R) => values.includes(getValueByDataIndex(record, column.dataIndex) as string | number | boolean);
        }
        return (record: R) => values.some((value) => onFilter(value, record));
    }

    const predicates = flattenColumns(columns)
        .map(matchColumn)
        .filter((predicate): predicate is (record: R) => boolean => predicate !== null);

    return (record: R) => predicates.every((predicate) => predicate(record));
}

/**
 * Walk tree data depth-first, yielding only rows whose ancestors are all
 * expanded.
 */
export function* iterateRows<R>(
    rows: R[],
    options: {
        childrenKey: string;
        rowKey: RowKeyGetter<R> | undefined;
        expandedKeys: ReadonlySet<RecordKey>;
    },
    depth = 0,
    parentKey: RecordKey | null = null,
): Generator<FlatRow<R>, void, undefined> {
    for (let index = 0; index < rows.length; index += 1) {
        const record = rows[index];
        const key = resolveRowKey(record, options.rowKey, index);
        yield { record, key, depth, index, parentKey };
        const children = (record as Record<string, unknown>)[options.childrenKey];
        if (Array.isArray(children) && children.length > 0 && options.expandedKeys.has(key)) {
            yield* iterateRows(children as R[], options, depth + 1, key);
        }
    }
}

/**
 * Call the user's `request` and normalise the result. Aborted requests
 * resolve to `null` so callers can ignore stale responses.
 */
export async function loadRemoteRows<R>(
    request: TableRequest<R>,
    params: TableRequestParams,
    signal: AbortSignal,
): Promise<TableRequestResult<R> | null> {
    try {
        const result = await request(params, signal);
        if (signal.aborted) {
            return null;
        }
        if (!result || !Array.isArray(result.data)) {
            warning(false, '[my-design] Table: `request` must resolve to `{ data: Record[], total: number }`.');
            return { data: [], total: 0 };
        }
        const total = Number.isFinite(result.total) ? result.total : result.data.length;
        return { data: result.data, total };
    } catch (error) {
        if (signal.aborted || (error instanceof DOMException && error.name === 'AbortError')) {
            return null;
        }
        throw error;
    }
}

function getNextSortOrder(current: SortOrder, directions: Array<Exclude<SortOrder, false>>): SortOrder {
    if (current === false) {
        return directions[0] ?? 'ascend';
    }
    const position = directions.indexOf(current);
    return position === -1 || position === directions.length - 1 ? false : directions[position + 1];
}

function collectInitialSorters<R>(columns: ColumnProps<R>[]): SorterState[] {
    const sorters: SorterState[] = [];
    for (const column of flattenColumns(columns)) {
        const order = column.sortOrder !== undefined ? column.sortOrder : column.defaultSortOrder;
        const config = getSorterConfig(column);
        if (config && order) {
            sorters.push({ columnKey: String(column.key), order, multiple: config.multiple });
        }
    }
    return sorters;
}

function collectInitialFilters<R>(columns: ColumnProps<R>[]): Record<string, FilterValue> {
    const filters: Record<string, FilterValue> = {};
    for (const column of flattenColumns(columns)) {
        const value = column.filteredValue !== undefined ? column.filteredValue : column.defaultFilteredValue;
        if (value && value.length > 0) {
            filters[String(column.key)] = value;
        }
    }
    return filters;
}

function collectAllKeys<R>(rows: R[], rowKey: RowKeyGetter<R> | undefined, childrenKey: string): RecordKey[] {
    const keys: RecordKey[] = [];
    const visit = (list: R[]) => {
        list.forEach((record, index) => {
            keys.push(resolveRowKey(record, rowKey, index));
            const children = (record as Record<string, unknown>)[childrenKey];
            if (Array.isArray(children)) {
                visit(children as R[]);
            }
        });
    };
    visit(rows);
    return keys;
}

/**
 * Renderers for the small built-in pieces. Exposed so that custom cells can
 * reuse the same markup.
 */
export const defaultRenderers = {
    emptyText(locale: TableLocale): React.ReactNode {
        return (
            <div className={`${prefixCls}-empty`} role="status">
                <span className={`${prefixCls}-empty-illustration`} aria-hidden="true" />
                <span className={`${prefixCls}-empty-text`}>{locale.emptyText}</span>
            </div>
        );
    },
    expandIcon: function (props: ExpandIconProps): React.ReactElement {
        const { expanded, expandable, record, onExpand } = props;
        if (!expandable) {
            return <span className={`${prefixCls}-expand-icon ${prefixCls}-expand-icon-spaced`} />;
        }
        return (
            <button
                type="button"
                className={cls(`${prefixCls}-expand-icon`, { [`${prefixCls}-expand-icon-expanded`]: expanded })}
                aria-expanded={expanded}
                onClick={(event) => {
                    event.stopPropagation();
                    onExpand(record, event);
                }}
            />
        );
    },
    sortIcon: (props: { order: SortOrder }) => {
        const { order } = props;
        return (
            <span className={`${prefixCls}-sorter`} aria-hidden="true">
                <span className={cls(`${prefixCls}-sorter-up`, { [`${prefixCls}-sorter-active`]: order === 'ascend' })} />
                <span className={cls(`${prefixCls}-sorter-down`, { [`${prefixCls}-sorter-active`]: order === 'descend' })} />
            </span>
        );
    },
};

/**
 * Declarative column definition. Renders nothing: `Table` reads its props.
 *
 * ```tsx
 * <Table dataSource={data}>
 *     <Table.Column title="Name" dataIndex="name" />
 * </Table>
 * ```
 */
export function TableColumn<R = any>(_props: ColumnProps<R>): null {
    return null;
}

TableColumn.displayName = 'Table.Column';

TableColumn.defaultProps = {
    align: 'left',
    filterMultiple: true,
} as Partial<ColumnProps>;

/* -------------------------------------------------------------------------- */
/*                                    Table                                   */
/* -------------------------------------------------------------------------- */

export default class Table extends React.Component<TableProps, TableState> implements TableRef {
    static contextType = ConfigContext;

    static displayName = 'Table';

    static Column = TableColumn;

    static defaultProps: Partial<TableProps> = {
        rowKey: strings.DEFAULT_ROW_KEY,
        size: TableSize.Default,
        bordered: false,
        striped: false,
        loading: false,
        pagination: true,
        resizable: false,
        showHeader: true,
        virtualized: false,
        childrenColumnName: strings.DEFAULT_CHILDREN_COLUMN_NAME,
        indentSize: numbers.DEFAULT_INDENT_SIZE,
        sortDirections: ['ascend', 'descend'],
    };

    /**
     * Sync controlled sorters, filters, selection and expansion into state.
     * Uncontrolled values are left alone.
     */
    static getDerivedStateFromProps(props: TableProps, state: TableState): Partial<TableState> | null {
        const columns = normalizeColumns(props.columns, props.children);
        const patch: Partial<TableState> = {};
        const leafColumns = flattenColumns(columns);

        const sortControlled = leafColumns.some((column) => column.sortOrder !== undefined);
        if (sortControlled) {
            patch.sorters = collectInitialSorters(
                leafColumns.map((column) => ({ ...column, defaultSortOrder: undefined })),
            );
        }

        const controlledFilters = leafColumns.filter((column) => column.filteredValue !== undefined);
        if (controlledFilters.length > 0) {
            const filters = { ...state.filters };
            controlledFilters.forEach((column) => {
                const value = column.filteredValue;
                if (value && value.length > 0) {
                    filters[String(column.key)] = value;
                } else {
                    delete filters[String(column.key)];
                }
            });
            patch.filters = filters;
        }

        const selectedRowKeys = props.rowSelection?.selectedRowKeys;
        if (selectedRowKeys && !shallowEqualKeys(selectedRowKeys, state.selectedRowKeys)) {
            patch.selectedRowKeys = selectedRowKeys;
        }

        const expandedRowKeys = props.expandable?.expandedRowKeys;
        if (expandedRowKeys && !shallowEqualKeys(expandedRowKeys, state.expandedRowKeys)) {
            patch.expandedRowKeys = expandedRowKeys;
        }

        if (typeof props.pagination === 'object' && props.pagination.currentPage !== undefined) {
            patch.currentPage = props.pagination.currentPage;
        }
        if (typeof props.pagination === 'object' && props.pagination.pageSize !== undefined) {
            patch.pageSize = props.pagination.pageSize;
        }

        patch.prevColumns = columns;
        return patch;
    }

    private bodyRef = React.createRef<HTMLDivElement>();

    private headerRef = React.createRef<HTMLDivElement>();

    private abortController: AbortController | null = null;

    private resizeObserver: ResizeObserver | null = null;

    private warnedAboutVirtualization = false;

    private _scrollLeft = 0;

    constructor(props: TableProps) {
        super(props);
        const columns = normalizeColumns(props.columns, props.children);
        const paginationConfig = typeof props.pagination === 'object' ? props.pagination : {};
        const expandable = props.expandable ?? {};
        const rowSelection = props.rowSelection ?? {};

        let expandedRowKeys: RecordKey[] = expandable.expandedRowKeys ?? expandable.defaultExpandedRowKeys ?? [];
        if (expandable.defaultExpandAllRows && !expandable.expandedRowKeys) {
            expandedRowKeys = collectAllKeys(props.dataSource ?? [], props.rowKey, this.childrenKey);
        }

        this.state = {
            sorters: collectInitialSorters(columns),
            filters: collectInitialFilters(columns),
            currentPage: paginationConfig.currentPage ?? paginationConfig.defaultCurrentPage ?? 1,
            pageSize: paginationConfig.pageSize ?? paginationConfig.defaultPageSize ?? numbers.DEFAULT_PAGE_SIZE,
            selectedRowKeys: rowSelection.selectedRowKeys ?? rowSelection.defaultSelectedRowKeys ?? [],
            expandedRowKeys,
            columnWidths: {},
            remoteData: null,
            remoteTotal: 0,
            remoteLoading: false,
            scrollPosition: 'none',
        };

        this.updateScrollPosition = debounce(this.updateScrollPosition, numbers.SCROLL_POSITION_DEBOUNCE);
    }

    /* ------------------------------ Accessors ------------------------------ */

    get childrenKey(): string {
        return this.props.childrenColumnName ?? strings.DEFAULT_CHILDREN_COLUMN_NAME;
    }

    get locale(): TableLocale {
        const config = this.context as ConfigContextValue | undefined;
        return { ...defaultLocale, ...config?.locale?.Table, ...this.props.locale };
    }

    get columns(): ColumnProps[] {
        return this.state.prevColumns ?? normalizeColumns(this.props.columns, this.props.children);
    }

    get isRemote(): boolean {
        return typeof this.props.request === 'function';
    }

    /** Rows after filtering and sorting, before paging. */
    get processedData(): any[] {
        if (this.isRemote) {
            return this.state.remoteData ?? [];
        }
        const filtered = this.getFilteredData(this.props.dataSource ?? []);
        return this.getSortedData(filtered);
    }

    get currentPageData(): any[] {
        return this.getPagedData(this.processedData);
    }

    get scrollLeft(): number {
        return this._scrollLeft;
    }

    set scrollLeft(value: number) {
        const body = this.bodyRef.current;
        const maxScroll = body ? body.scrollWidth - body.clientWidth : 0;
        this._scrollLeft = clamp(value, 0, Math.max(0, maxScroll));
        if (body && body.scrollLeft !== this._scrollLeft) {
            body.scrollLeft = this._scrollLeft;
        }
        if (this.headerRef.current && this.headerRef.current.scrollLeft !== this._scrollLeft) {
            this.headerRef.current.scrollLeft = this._scrollLeft;
        }
    }

    /* ------------------------------ Lifecycle ------------------------------ */

    componentDidMount() {
        if (this.isRemote) {
            void this.reload();
        }
        const body = this.bodyRef.current;
        if (body && typeof ResizeObserver !== 'undefined') {
            this.resizeObserver = new ResizeObserver(() => this.updateScrollPosition());
            this.resizeObserver.observe(body);
        }
        this.updateScrollPosition();
        this.checkVirtualization();
    }

    componentDidUpdate(prevProps: TableProps, prevState: TableState) {
        const { dataSource, request } = this.props;
        if (this.isRemote && request !== prevProps.request) {
            void this.reload();
        }
        if (!this.isRemote && dataSource !== prevProps.dataSource) {
            this.clampCurrentPage();
            if (!this.props.rowSelection?.preserveSelectedRowKeys) {
                this.pruneSelectedKeys();
            }
        }
        if (prevState.currentPage !== this.state.currentPage && this.props.scroll?.scrollToFirstRowOnChange !== false) {
            this.scrollTo({ top: 0 });
        }
    }

    componentWillUnmount() {
        this.abortController?.abort();
        this.resizeObserver?.disconnect();
        this.resizeObserver = null;
    }

    /* ----------------------------- Public API ------------------------------ */

    async reload(): Promise<void> {
        const { request } = this.props;
        if (!request) {
            warning(false, '[my-design] Table: `reload()` only works together with the `request` prop.');
            return;
        }
        this.abortController?.abort();
        const controller = new AbortController();
        this.abortController = controller;

        this.setState({ remoteLoading: true });
        const params: TableRequestParams = {
            currentPage: this.state.currentPage,
            pageSize: this.state.pageSize,
            sorters: this.state.sorters,
            filters: this.state.filters,
        };

        const startedAt = now();
        try {
            const result = await loadRemoteRows(request, params, controller.signal);
            if (result === null || controller !== this.abortController) {
                return;
            }
            if (now() - startedAt > numbers.SLOW_REQUEST_THRESHOLD) {
                warning(false, '[my-design] Table: `request` took longer than 3s. Consider server-side paging or a smaller `pageSize`.');
            }
            this.setState({ remoteData: result.data, remoteTotal: result.total, remoteLoading: false }, () => {
                this.emitChange(ChangeAction.Reload);
            });
        } catch (error) {
            this.setState({ remoteLoading: false });
            warning(false, `[my-design] Table: \`request\` rejected: ${String(error)}`);
        }
    }

    scrollTo(index: number): void;
    scrollTo(options: TableScrollToOptions): void;
    scrollTo(target: number | TableScrollToOptions): void {
        const body = this.bodyRef.current;
        if (!body) {
            return;
        }
        const options: TableScrollToOptions = typeof target === 'number' ? { index: target } : target;
        const behavior = options.behavior ?? 'auto';

        if (typeof options.top === 'number') {
            body.scrollTo({ top: options.top, behavior });
            return;
        }

        let rowIndex = options.index;
        if (options.key !== undefined) {
            rowIndex = this.currentPageData.findIndex(
                (record, position) => resolveRowKey(record, this.props.rowKey, position) === options.key,
            );
        }
        if (rowIndex === undefined || rowIndex < 0) {
            return;
        }
        const row = body.querySelector<HTMLTableRowElement>(`[data-row-index="${rowIndex}"]`);
        if (row) {
            body.scrollTo({ top: row.offsetTop, behavior });
        } else if (this.props.virtualized) {
            body.scrollTo({ top: rowIndex * this.virtualItemSize, behavior });
        }
    }

    getCurrentPageData(): any[] {
        return this.currentPageData;
    }

    clearFilters(columnKey?: React.Key): void {
        const filters = { ...this.state.filters };
        if (columnKey === undefined) {
            Object.keys(filters).forEach((key) => delete filters[key]);
        } else {
            delete filters[String(columnKey)];
        }
        this.setState({ filters, currentPage: 1 }, () => this.emitChange(ChangeAction.Filter));
    }

    clearSorters(): void {
        this.setState({ sorters: [] }, () => this.emitChange(ChangeAction.Sort));
    }

    /* ------------------------------- Handlers ------------------------------ */

    handleSort = (column: ColumnProps, event?: React.MouseEvent<HTMLElement>) => {
        const config = getSorterConfig(column);
        if (!config) {
            return;
        }
        event?.preventDefault();
        const columnKey = String(column.key);
        const current = this.state.sorters.find((sorter) => sorter.columnKey === columnKey);
        const directions = column.sortDirections ?? this.props.sortDirections ?? ['ascend', 'descend'];
        const nextOrder = getNextSortOrder(current ? current.order : false, directions);

        let sorters: SorterState[];
        if (config.multiple === undefined) {
            sorters = nextOrder ? [{ columnKey, order: nextOrder }] : [];
        } else {
            const others = this.state.sorters.filter((sorter) => sorter.columnKey !== columnKey && sorter.multiple !== undefined);
            sorters = nextOrder ? [...others, { columnKey, order: nextOrder, multiple: config.multiple }] : others;
        }

        if (column.sortOrder !== undefined) {
            // Controlled: only report the intent, the parent decides.
            this.emitChange(ChangeAction.Sort, { sorters });
            return;
        }
        this.setState({ sorters }, () => this.afterQueryChange(ChangeAction.Sort));
    };

    handleFilter = (column: ColumnProps, values: FilterValue) => {
        const columnKey = String(column.key);
        const filters = { ...this.state.filters };
        if (values.length > 0) {
            filters[columnKey] = values;
        } else {
            delete filters[columnKey];
        }
        if (column.filteredValue !== undefined) {
            this.emitChange(ChangeAction.Filter, { filters });
            return;
        }
        this.setState({ filters, currentPage: 1 }, () => this.afterQueryChange(ChangeAction.Filter));
    };

    handlePageChange = (currentPage: number, pageSize: number) => {
        const { pagination } = this.props;
        const config = typeof pagination === 'object' ? pagination : undefined;
        config?.onChange?.(currentPage, pageSize);
        if (config?.currentPage !== undefined) {
            this.emitChange(ChangeAction.Paginate, { currentPage, pageSize });
            return;
        }
        const nextPage = pageSize !== this.state.pageSize ? 1 : currentPage;
        this.setState({ currentPage: nextPage, pageSize }, () => this.afterQueryChange(ChangeAction.Paginate));
    };

    handleSelectRow = (record: any, index: number, event: React.ChangeEvent<HTMLInputElement>) => {
        const { rowSelection, rowKey } = this.props;
        if (!rowSelection) {
            return;
        }
        const key = resolveRowKey(record, rowKey, index);
        const selected = event.target.checked;
        const isRadio = rowSelection.type === SelectionType.Radio;

        let nextKeys: RecordKey[];
        if (isRadio) {
            nextKeys = selected ? [key] : [];
        } else if (selected) {
            nextKeys = [...this.state.selectedRowKeys, key];
        } else {
            nextKeys = this.state.selectedRowKeys.filter((item) => item !== key);
        }

        const selectedRows = this.findRowsByKeys(nextKeys);
        rowSelection.onSelect?.(record, selected, selectedRows, event);
        this.commitSelection(nextKeys, selectedRows);
    };

    handleSelectAll = (selected: boolean) => {
        const { rowSelection, rowKey } = this.props;
        if (!rowSelection) {
            return;
        }
        const pageData = this.currentPageData;
        const selectable = pageData.filter((record) => !rowSelection.getCheckboxProps?.(record)?.disabled);
        const pageKeys = selectable.map((record, index) => resolveRowKey(record, rowKey, index));
        const current = new Set(this.state.selectedRowKeys);

        const changedRows = selectable.filter((_record, index) => current.has(pageKeys[index]) !== selected);
        pageKeys.forEach((key) => (selected ? current.add(key) : current.delete(key)));

        const nextKeys = Array.from(current);
        const selectedRows = this.findRowsByKeys(nextKeys);
        rowSelection.onSelectAll?.(selected, selectedRows, changedRows);
        this.commitSelection(nextKeys, selectedRows);
    };

    handleExpand = (record: any, event?: React.MouseEvent<HTMLElement>) => {
        event?.stopPropagation();
        const { expandable = {}, rowKey } = this.props;
        const index = this.currentPageData.indexOf(record);
        const key = resolveRowKey(record, rowKey, index);
        const expanded = !this.state.expandedRowKeys.includes(key);
        const nextKeys = expanded
            ? [...this.state.expandedRowKeys, key]
            : this.state.expandedRowKeys.filter((item) => item !== key);

        expandable.onExpand?.(expanded, record);
        expandable.onExpandedRowsChange?.(nextKeys);
        if (!expandable.expandedRowKeys) {
            this.setState({ expandedRowKeys: nextKeys });
        }
    };

    handleBodyScroll = (event: React.UIEvent<HTMLDivElement>) => {
        const target = event.currentTarget;
        if (target.scrollLeft !== this._scrollLeft) {
            this.scrollLeft = target.scrollLeft;
            this.updateScrollPosition();
        }
        this.props.onScroll?.(event);
    };

    handleColumnResize = (columnKey: string, width: number, done: boolean) => {
        const column = flattenColumns(this.columns).find((item) => String(item.key) === columnKey);
        const minWidth = column?.minWidth ?? numbers.MIN_COLUMN_WIDTH;
        const nextWidth = Math.max(minWidth, Math.round(width));
        this.setState((prev) => ({ columnWidths: { ...prev.columnWidths, [columnKey]: nextWidth } }));
        if (done) {
            this.props.onColumnResize?.(columnKey, nextWidth);
        }
    };

    /* ------------------------------ Data flow ------------------------------ */

    getFilteredData(data: any[]): any[] {
        if (Object.keys(this.state.filters).length === 0) {
            return data;
        }
        const predicate = createFilterPredicate(this.columns, this.state.filters);
        const childrenKey = this.childrenKey;
        const filterTree = (rows: any[]): any[] =>
            rows.reduce<any[]>((result, record) => {
                const children = record[childrenKey];
                const keptChildren = Array.isArray(children) ? filterTree(children) : undefined;
                if (predicate(record) || (keptChildren && keptChildren.length > 0)) {
                    result.push(keptChildren ? { ...record, [childrenKey]: keptChildren } : record);
                }
                return result;
            }, []);
        return filterTree(data);
    }

    getSortedData(data: any[]): any[] {
        const { sorters } = this.state;
        if (sorters.length === 0) {
            return data;
        }
        const leafColumns = flattenColumns(this.columns);
        const compiled = sorters
            .map((sorter) => {
                const column = leafColumns.find((item) => String(item.key) === sorter.columnKey);
                const config = column ? getSorterConfig(column) : null;
                return config ? { ...sorter, compare: config.compare } : null;
            })
            .filter(Boolean)
            .sort((a, b) => (b!.multiple ?? 0) - (a!.multiple ?? 0)) as Array<SorterState & { compare: CompareFn<any> }>;

        const childrenKey = this.childrenKey;

        // Sort each level of tree data on its own so children stay under their parent.
        function sortLevel(rows: any[]): any[] {
            const sorted = rows.slice().sort((a, b) => {
                for (const sorter of compiled) {
                    const result = sorter.compare(a, b, sorter.order);
                    if (result !== 0) {
                        return sorter.order === 'descend' ? -result : result;
                    }
                }
                return 0;
            });
            return sorted.map((record) => {
                const children = record[childrenKey];
                return Array.isArray(children) && children.length > 0
                    ? { ...record, [childrenKey]: sortLevel(children) }
                    : record;
            });
        }

        return sortLevel(data);
    }

    getPagedData(data: any[]): any[] {
        if (this.props.pagination === false || this.isRemote) {
            return data;
        }
        const { currentPage, pageSize } = this.state;
        const start = (currentPage - 1) * pageSize;
        return data.slice(start, start + pageSize);
    }

    getVisibleRows(pageData: any[]): FlatRow<any>[] {
        const expandedKeys = new Set(this.state.expandedRowKeys);
        return Array.from(
            iterateRows(pageData, { childrenKey: this.childrenKey, rowKey: this.props.rowKey, expandedKeys }),
        );
    }

    get virtualItemSize(): number {
        const { virtualized, size } = this.props;
        if (typeof virtualized === 'object' && virtualized.itemSize) {
            return virtualized.itemSize;
        }
        return size === TableSize.Small ? numbers.ROW_HEIGHT_SMALL : size === TableSize.Middle ? numbers.ROW_HEIGHT_MIDDLE : numbers.ROW_HEIGHT_DEFAULT;
    }

    findRowsByKeys(keys: RecordKey[]): any[] {
        const wanted = new Set(keys);
        const source = this.isRemote ? this.state.remoteData ?? [] : this.props.dataSource ?? [];
        const found: any[] = [];
        const { rowKey } = this.props;
        const childrenKey = this.childrenKey;
        (function walk(rows: any[]) {
            rows.forEach((record, index) => {
                if (wanted.has(resolveRowKey(record, rowKey, index))) {
                    found.push(record);
                }
                if (Array.isArray(record[childrenKey])) {
                    walk(record[childrenKey]);
                }
            });
        })(source);
        return found;
    }

    commitSelection(keys: RecordKey[], rows: any[]) {
        const { rowSelection } = this.props;
        rowSelection?.onChange?.(keys, rows);
        if (!rowSelection?.selectedRowKeys) {
            this.setState({ selectedRowKeys: keys });
        }
    }

    pruneSelectedKeys() {
        const { dataSource = [], rowKey } = this.props;
        const existing = new Set(collectAllKeys(dataSource, rowKey, this.childrenKey));
        const kept = this.state.selectedRowKeys.filter((key) => existing.has(key));
        if (kept.length !== this.state.selectedRowKeys.length) {
            this.commitSelection(kept, this.findRowsByKeys(kept));
        }
    }

    clampCurrentPage() {
        if (this.props.pagination === false) {
            return;
        }
        const total = this.processedData.length;
        const lastPage = Math.max(1, Math.ceil(total / this.state.pageSize));
        if (this.state.currentPage > lastPage) {
            this.setState({ currentPage: lastPage });
        }
    }

    afterQueryChange(action: ChangeAction) {
        if (this.isRemote) {
            void this.reload();
            return;
        }
        this.emitChange(action);
    }

    emitChange(
        action: ChangeAction,
        overrides: Partial<{ sorters: SorterState[]; filters: Record<string, FilterValue>; currentPage: number; pageSize: number }> = {},
    ) {
        const { onChange } = this.props;
        if (!onChange) {
            return;
        }
        const sorters = overrides.sorters ?? this.state.sorters;
        const exclusive = sorters.every((sorter) => sorter.multiple === undefined);
        onChange({
            action,
            pagination: {
                currentPage: overrides.currentPage ?? this.state.currentPage,
                pageSize: overrides.pageSize ?? this.state.pageSize,
            },
            filters: overrides.filters ?? this.state.filters,
            sorter: exclusive ? sorters[0] ?? null : sorters,
            extra: { currentDataSource: this.processedData },
        });
    }

    updateScrollPosition() {
        const body = this.bodyRef.current;
        if (!body) {
            return;
        }
        const { scrollLeft, scrollWidth, clientWidth } = body;
        let scrollPosition: ScrollPosition = 'middle';
        if (scrollWidth <= clientWidth) {
            scrollPosition = 'none';
        } else if (scrollLeft <= 0) {
            scrollPosition = 'left';
        } else if (scrollLeft + clientWidth >= scrollWidth - 1) {
            scrollPosition = 'right';
        }
        if (scrollPosition !== this.state.scrollPosition) {
            this.setState({ scrollPosition });
        }
    }

    checkVirtualization() {
        const { virtualized, scroll } = this.props;
        if (virtualized && !scroll?.y && !this.warnedAboutVirtualization) {
            this.warnedAboutVirtualization = true;
            warning(false, '[my-design] Table: `virtualized` needs a fixed body height. Set `scroll.y` as well.');
        }
    }

    /* ------------------------------- Columns ------------------------------- */

    /**
     * Prepend the selection and expand columns and apply resized widths.
     */
    buildColumns(pageData: any[]): ColumnProps[] {
        const { rowSelection, expandable, resizable } = this.props;
        const { columnWidths } = this.state;

        const applyWidths = (list: ColumnProps[]): ColumnProps[] =>
            list.map((column) => {
                if (!isLeafColumn(column)) {
                    return { ...column, children: applyWidths(column.children ?? []) };
                }
                const width = columnWidths[String(column.key)];
                return {
                    ...column,
                    width: width ?? column.width,
                    resizable: column.resizable ?? resizable,
                };
            });

        const result = applyWidths(this.columns);
        if (expandable?.expandedRowRender) {
            result.unshift(this.buildExpandColumn(expandable));
        }
        if (rowSelection) {
            result.unshift(this.buildSelectionColumn(rowSelection, pageData));
        }
        return result;
    }

    buildSelectionColumn(rowSelection: RowSelection, pageData: any[]): ColumnProps {
        const { rowKey } = this.props;
        const locale = this.locale;
        const selectedKeys = new Set(this.state.selectedRowKeys);
        const isRadio = rowSelection.type === SelectionType.Radio;

        const isDisabled = (record: any) => Boolean(rowSelection.getCheckboxProps?.(record)?.disabled);
        const selectable = pageData.filter((record) => !isDisabled(record));
        const checkedCount = selectable.filter((record, index) => selectedKeys.has(resolveRowKey(record, rowKey, index))).length;
        const allChecked = selectable.length > 0 && checkedCount === selectable.length;
        const indeterminate = checkedCount > 0 && !allChecked;

        const renderHeader = () => {
            if (rowSelection.columnTitle !== undefined) {
                return rowSelection.columnTitle;
            }
            if (isRadio || rowSelection.hideSelectAll) {
                return null;
            }
            return (
                <Checkbox
                    aria-label={locale.selectAll}
                    checked={allChecked}
                    indeterminate={indeterminate}
                    disabled={selectable.length === 0}
                    onChange={(event) => this.handleSelectAll(event.target.checked)}
                />
            );
        };

        return {
            key: strings.SELECTION_COLUMN_KEY,
            title: renderHeader(),
            width: rowSelection.columnWidth ?? numbers.SELECTION_COLUMN_WIDTH,
            fixed: rowSelection.fixed ? 'left' : false,
            className: `${prefixCls}-selection-column`,
            render: (_value: unknown, record: any, index: number) => {
                const key = resolveRowKey(record, rowKey, index);
                const extraProps = rowSelection.getCheckboxProps?.(record) ?? {};
                const ariaLabel = extraProps['aria-label'] ?? `${locale.selectRow} ${String(key)}`;
                if (isRadio) {
                    return (
                        <input
                            type="radio"
                            className={`${prefixCls}-selection-radio`}
                            name={extraProps.name ?? `${prefixCls}-selection`}
                            aria-label={ariaLabel}
                            checked={selectedKeys.has(key)}
                            disabled={extraProps.disabled}
                            onChange={(event) => this.handleSelectRow(record, index, event)}
                        />
                    );
                }
                return (
                    <Checkbox
                        aria-label={ariaLabel}
                        name={extraProps.name}
                        checked={selectedKeys.has(key)}
                        disabled={extraProps.disabled}
                        onChange={(event) => this.handleSelectRow(record, index, event)}
                    />
                );
            },
        };
    }

    buildExpandColumn(expandable: ExpandableConfig): ColumnProps {
        const { rowKey } = this.props;
        const expandedKeys = new Set(this.state.expandedRowKeys);
        const renderIcon = expandable.expandIcon ?? defaultRenderers.expandIcon;
        return {
            key: strings.EXPAND_COLUMN_KEY,
            width: numbers.EXPAND_COLUMN_WIDTH,
            className: `${prefixCls}-expand-column`,
            render: (_value: unknown, record: any, index: number) =>
                renderIcon({
                    record,
                    expanded: expandedKeys.has(resolveRowKey(record, rowKey, index)),
                    expandable: expandable.rowExpandable ? expandable.rowExpandable(record) : true,
                    onExpand: this.handleExpand,
                }),
        };
    }

    /* ------------------------------- Render -------------------------------- */

    renderTitle(pageData: any[]) {
        const { title } = this.props;
        if (title === undefined || title === null) {
            return null;
        }
        return <div className={`${prefixCls}-title`}>{isFunction(title) ? title(pageData) : title}</div>;
    }

    renderFooter(pageData: any[]) {
        const { footer } = this.props;
        if (footer === undefined || footer === null) {
            return null;
        }
        return <div className={`${prefixCls}-footer`}>{isFunction(footer) ? footer(pageData) : footer}</div>;
    }

    renderEmpty() {
        const { empty } = this.props;
        const content = empty ?? defaultRenderers.emptyText(this.locale);
        return <div className={`${prefixCls}-placeholder`}>{content}</div>;
    }

    renderPagination(placement: 'top' | 'bottom') {
        const { pagination, size } = this.props;
        if (pagination === false) {
            return null;
        }
        const config: TablePaginationConfig = typeof pagination === 'object' ? pagination : {};
        const position = config.position ?? 'bottomRight';
        const shownHere = position === 'both' || position.startsWith(placement);
        if (!shownHere) {
            return null;
        }
        const total = config.total ?? (this.isRemote ? this.state.remoteTotal : this.processedData.length);
        if (total === 0) {
            return null;
        }
        const { position: _position, onChange: _onChange, currentPage: _currentPage, ...rest } = config;
        const alignRight = position === 'both' || position.endsWith('Right');
        return (
            <div className={cls(`${prefixCls}-pagination`, { [`${prefixCls}-pagination-right`]: alignRight })}>
                <Pagination
                    size={size === TableSize.Small ? 'small' : 'default'}
                    {...rest}
                    total={total}
                    currentPage={this.state.currentPage}
                    pageSize={this.state.pageSize}
                    onChange={this.handlePageChange}
                />
            </div>
        );
    }

    render() {
        const {
            className,
            style,
            id,
            size,
            bordered,
            striped,
            loading,
            showHeader,
            scroll,
            sticky,
            virtualized,
            summary,
            indentSize,
            rowKey,
            rowClassName,
            expandable,
            onRow,
            onHeaderRow,
        } = this.props;
        const { sorters, filters, selectedRowKeys, expandedRowKeys, remoteLoading, scrollPosition } = this.state;

        const pageData = this.currentPageData;
        const columns = this.buildColumns(pageData);
        const rows = this.getVisibleRows(pageData);
        const isEmpty = rows.length === 0;
        const scrollbarWidth = scroll?.y ? measureScrollbar() : 0;

        const wrapperClassName = cls(prefixCls, className, `${prefixCls}-${size ?? TableSize.Default}`, {
            [`${prefixCls}-bordered`]: bordered,
            [`${prefixCls}-striped`]: striped,
            [`${prefixCls}-empty`]: isEmpty,
            [`${prefixCls}-fixed-header`]: Boolean(scroll?.y),
            [`${prefixCls}-sticky`]: Boolean(sticky),
            [`${prefixCls}-ping-left`]: scrollPosition === 'middle' || scrollPosition === 'right',
            [`${prefixCls}-ping-right`]: scrollPosition === 'middle' || scrollPosition === 'left',
        });

        const stickyOffset = typeof sticky === 'object' ? sticky.offsetHeader ?? 0 : 0;

        const header = showHeader ? (
            <TableHeader
                ref={this.headerRef}
                prefixCls={prefixCls}
                columns={columns}
                sorters={sorters}
                filters={filters}
                locale={this.locale}
                scrollbarWidth={scrollbarWidth}
                stickyOffset={sticky ? stickyOffset : undefined}
                renderSortIcon={defaultRenderers.sortIcon}
                onSort={this.handleSort}
                onFilter={this.handleFilter}
                onResize={this.handleColumnResize}
                onHeaderRow={onHeaderRow}
            />
        ) : null;

        const body = (
            <TableBody
                ref={this.bodyRef}
                prefixCls={prefixCls}
                columns={columns}
                rows={rows}
                rowKey={rowKey}
                rowClassName={rowClassName}
                selectedRowKeys={selectedRowKeys}
                expandedRowKeys={expandedRowKeys}
                expandedRowRender={expandable?.expandedRowRender}
                expandRowByClick={expandable?.expandRowByClick}
                onExpand={this.handleExpand}
                indentSize={indentSize ?? numbers.DEFAULT_INDENT_SIZE}
                scroll={scroll}
                virtualized={Boolean(virtualized)}
                itemSize={this.virtualItemSize}
                overscan={typeof virtualized === 'object' ? virtualized.overscan : undefined}
                summary={summary ? summary(pageData) : null}
                empty={isEmpty ? this.renderEmpty() : null}
                onRow={onRow}
                onScroll={this.handleBodyScroll}
            />
        );

        return (
            <div
                className={wrapperClassName}
                style={style}
                id={id}
                role="region"
                aria-label={this.props['aria-label']}
                aria-busy={loading || remoteLoading}
            >
                {this.renderPagination('top')}
                <Spin spinning={Boolean(loading || remoteLoading)} delay={numbers.LOADING_DELAY}>
                    {this.renderTitle(pageData)}
                    <div className={`${prefixCls}-container`}>
                        {header}
                        {body}
                    </div>
                    {this.renderFooter(pageData)}
                </Spin>
                {this.renderPagination('bottom')}
            </div>
        );
    }
}
