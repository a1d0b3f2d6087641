import React from 'react';
import { cls } from '../_utils/classNames';
import { KeyCode } from '../_utils/keyCodes';
import Checkbox from '../Checkbox';
import Tooltip from '../Tooltip';
import type { ColumnFilterItem, ColumnProps, FilterValue, SortOrder, SorterState, TableLocale } from './Table';
import { buildHeaderRows, getFixedOffsets, flattenColumns, normalizeFixed } from './utils';

export interface TableHeaderProps {
    prefixCls: string;
    columns: ColumnProps[];
    sorters: SorterState[];
    filters: Record<string, FilterValue>;
    locale: TableLocale;
    scrollbarWidth: number;
    stickyOffset?: number;
    renderSortIcon: (props: { order: SortOrder }) => React.ReactNode;
    onSort: (column: ColumnProps, event?: React.MouseEvent<HTMLElement>) => void;
    onFilter: (column: ColumnProps, values: FilterValue) => void;
    onResize: (columnKey: string, width: number, done: boolean) => void;
    onHeaderRow?: (columns: ColumnProps[], index: number) => React.HTMLAttributes<HTMLTableRowElement>;
}

interface FilterDropdownState {
    open: boolean;
    draft: FilterValue;
}

function FilterMenu(props: {
    prefixCls: string;
    items: ColumnFilterItem[];
    multiple: boolean;
    draft: FilterValue;
    onToggle: (value: string | number | boolean) => void;
}) {
    const { prefixCls, items, multiple, draft, onToggle } = props;
    return (
        <ul className={`${prefixCls}-filter-menu`} role="menu">
            {items.map((item) => (
                <li key={String(item.value)} role="menuitem" className={`${prefixCls}-filter-menu-item`}>
                    {multiple ? (
                        <Checkbox checked={draft.includes(item.value)} onChange={() => onToggle(item.value)}>
                            {item.text}
                        </Checkbox>
                    ) : (
                        <label>
                            <input type="radio" checked={draft.includes(item.value)} onChange={() => onToggle(item.value)} />
                            {item.text}
                        </label>
                    )}
                    {item.children && item.children.length > 0 ? (
                        <FilterMenu prefixCls={prefixCls} items={item.children} multiple={multiple} draft={draft} onToggle={onToggle} />
                    ) : null}
                </li>
            ))}
        </ul>
    );
}

function ColumnFilter(props: {
    prefixCls: string;
    column: ColumnProps;
    applied: FilterValue;
    locale: TableLocale;
    onFilter: TableHeaderProps['onFilter'];
}) {
    const { prefixCls, column, applied, locale, onFilter } = props;
    const [state, setState] = React.useState<FilterDropdownState>({ open: false, draft: applied });
    const multiple = column.filterMultiple !== false;
    const filtered = applied.length > 0;

    React.useEffect(() => {
        if (!state.open) {
            setState((prev) => ({ ...prev, draft: applied }));
        }
    }, [applied, state.open]);

    const toggle = (value: string | number | boolean) => {
        setState((prev) => {
            if (!multiple) {
                return { ...prev, draft: [value] };
            }
            const draft = prev.draft.includes(value) ? prev.draft.filter((item) => item !== value) : [...prev.draft, value];
            return { ...prev, draft };
        });
    };

    const confirm = (options?: { closeDropdown?: boolean }) => {
        onFilter(column, state.draft);
        if (options?.closeDropdown !== false) {
            setState((prev) => ({ ...prev, open: false }));
        }
    };

    const clearFilters = () => {
        setState({ open: false, draft: [] });
        onFilter(column, []);
    };

    const dropdownProps = {
        selectedKeys: state.draft,
        setSelectedKeys: (keys: FilterValue) => setState((prev) => ({ ...prev, draft: keys })),
        confirm,
        clearFilters,
        filters: column.filters ?? [],
        visible: state.open,
    };

    let content: React.ReactNode;
    if (typeof column.filterDropdown === 'function') {
        content = column.filterDropdown(dropdownProps);
    } else if (column.filterDropdown) {
        content = column.filterDropdown;
    } else {
        content = (
            <div className={`${prefixCls}-filter-dropdown`}>
                <FilterMenu prefixCls={prefixCls} items={column.filters ?? []} multiple={multiple} draft={state.draft} onToggle={toggle} />
                <div className={`${prefixCls}-filter-actions`}>
                    <button type="button" onClick={clearFilters} disabled={state.draft.length === 0}>
                        {locale.filterReset}
                    </button>
                    <button type="button" onClick={() => confirm()}>
                        {locale.filterConfirm}
                    </button>
                </div>
            </div>
        );
    }

    const icon = typeof column.filterIcon === 'function' ? column.filterIcon(filtered) : column.filterIcon;

    return (
        <span className={`${prefixCls}-filter`}>
            <button
                type="button"
                className={cls(`${prefixCls}-filter-trigger`, { [`${prefixCls}-filter-trigger-active`]: filtered })}
                aria-haspopup="menu"
                aria-expanded={state.open}
                onClick={(event) => {
                    event.stopPropagation();
                    setState((prev) => ({ ...prev, open: !prev.open }));
                }}
            >
                {icon ?? <span className={`${prefixCls}-filter-icon`} aria-hidden="true" />}
            </button>
            {state.open ? content : null}
        </span>
    );
}

function ResizeHandle(props: { prefixCls: string; columnKey: string; onResize: TableHeaderProps['onResize'] }) {
    const { prefixCls, columnKey, onResize } = props;

    const handleMouseDown = (event: React.MouseEvent<HTMLSpanElement>) => {
        event.preventDefault();
        event.stopPropagation();
        const cell = event.currentTarget.parentElement;
        if (!cell) {
            return;
        }
        const startX = event.clientX;
        const startWidth = cell.getBoundingClientRect().width;
        const move = (moveEvent: MouseEvent) => onResize(columnKey, startWidth + moveEvent.clientX - startX, false);
        const up = (upEvent: MouseEvent) => {
            onResize(columnKey, startWidth + upEvent.clientX - startX, true);
            document.removeEventListener('mousemove', move);
            document.removeEventListener('mouseup', up);
        };
        document.addEventListener('mousemove', move);
        document.addEventListener('mouseup', up);
    };

    return <span className={`${prefixCls}-resize-handle`} role="separator" aria-orientation="vertical" onMouseDown={handleMouseDown} />;
}

const TableHeader = React.forwardRef<HTMLDivElement, TableHeaderProps>(function TableHeader(props, ref) {
    const { prefixCls, columns, sorters, filters, locale, scrollbarWidth, stickyOffset, renderSortIcon, onSort, onFilter, onResize, onHeaderRow } =
        props;
    const headerRows = buildHeaderRows(columns);
    const leafColumns = flattenColumns(columns);
    const offsets = getFixedOffsets(leafColumns);

    const sortLabel = (order: SortOrder) =>
        order === false ? locale.sortAscend : order === 'ascend' ? locale.sortDescend : locale.cancelSort;

    return (
        <div
            ref={ref}
            className={`${prefixCls}-header`}
            style={stickyOffset !== undefined ? { position: 'sticky', top: stickyOffset, zIndex: 3 } : undefined}
        >
            <table>
                <colgroup>
                    {leafColumns.map((column) => (
                        <col key={String(column.key)} style={{ width: column.width, minWidth: column.minWidth }} />
                    ))}
                    {scrollbarWidth > 0 ? <col style={{ width: scrollbarWidth }} /> : null}
                </colgroup>
                <thead className={`${prefixCls}-thead`}>
                    {headerRows.map((cells, rowIndex) => (
                        <tr key={rowIndex} {...onHeaderRow?.(cells.map((cell) => cell.column), rowIndex)}>
                            {cells.map(({ column, colSpan, rowSpan, isLeaf }) => {
                                const key = String(column.key);
                                const sorter = sorters.find((item) => item.columnKey === key);
                                const order: SortOrder = sorter ? sorter.order : false;
                                const applied = filters[key] ?? [];
                                const fixed = normalizeFixed(column.fixed);
                                const sortable = isLeaf && Boolean(column.sorter);
                                const title =
                                    typeof column.title === 'function'
                                        ? column.title({ sortOrder: order, filtered: applied.length > 0 })
                                        : column.title;

                                const cellContent = (
                                    <span className={`${prefixCls}-column-title`}>
                                        {title}
                                        {sortable ? renderSortIcon({ order }) : null}
                                    </span>
                                );

                                return (
                                    <th
                                        key={key}
                                        colSpan={colSpan > 1 ? colSpan : undefined}
                                        rowSpan={rowSpan > 1 ? rowSpan : undefined}
                                        scope={isLeaf ? 'col' : 'colgroup'}
                                        aria-sort={order === 'ascend' ? 'ascending' : order === 'descend' ? 'descending' : undefined}
                                        tabIndex={sortable ? 0 : undefined}
                                        className={cls(`${prefixCls}-cell`, column.className, `${prefixCls}-align-${column.align ?? 'left'}`, {
                                            [`${prefixCls}-column-sortable`]: sortable,
                                            [`${prefixCls}-cell-fixed-${fixed}`]: fixed !== null,
                                        })}
                                        style={fixed ? { position: 'sticky', ...offsets[key] } : undefined}
                                        onClick={sortable ? (event) => onSort(column, event) : undefined}
                                        onKeyDown={
                                            sortable
                                                ? (event) => {
                                                      if (event.keyCode === KeyCode.ENTER || event.keyCode === KeyCode.SPACE) {
                                                          event.preventDefault();
                                                          onSort(column);
                                                      }
                                                  }
                                                : undefined
                                        }
                                        {...column.onHeaderCell?.(column)}
                                    >
                                        {sortable ? <Tooltip content={sortLabel(order)}>{cellContent}</Tooltip> : cellContent}
                                        {isLeaf && (column.filters || column.filterDropdown) ? (
                                            <ColumnFilter prefixCls={prefixCls} column={column} applied={applied} locale={locale} onFilter={onFilter} />
                                        ) : null}
                                        {isLeaf && column.resizable ? <ResizeHandle prefixCls={prefixCls} columnKey={key} onResize={onResize} /> : null}
                                    </th>
                                );
                            })}
                        </tr>
                    ))}
                </thead>
            </table>
        </div>
    );
});

export default TableHeader;
