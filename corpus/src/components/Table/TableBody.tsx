import React from 'react';
import { cls } from '../_utils/classNames';
import type { ColumnProps, FlatRow, RecordKey, RowKeyGetter, TableScrollConfig } from './Table';
import { numbers } from './constants';
import { flattenColumns, getFixedOffsets, getValueByDataIndex, isSpanCell, normalizeFixed } from './utils';

export interface TableBodyProps {
    prefixCls: string;
    columns: ColumnProps[];
    rows: FlatRow<any>[];
    rowKey?: RowKeyGetter<any>;
    rowClassName?: string | ((record: any, index: number) => string);
    selectedRowKeys: RecordKey[];
    expandedRowKeys: RecordKey[];
    expandedRowRender?: (record: any, index: number, expanded: boolean) => React.ReactNode;
    expandRowByClick?: boolean;
    onExpand: (record: any, event?: React.MouseEvent<HTMLElement>) => void;
    indentSize: number;
    scroll?: TableScrollConfig;
    virtualized: boolean;
    itemSize: number;
    overscan?: number;
    summary: React.ReactNode;
    empty: React.ReactNode;
    onRow?: (record: any, index: number) => React.HTMLAttributes<HTMLTableRowElement>;
    onScroll: (event: React.UIEvent<HTMLDivElement>) => void;
}

interface RowProps {
    prefixCls: string;
    row: FlatRow<any>;
    rowIndex: number;
    leafColumns: ColumnProps[];
    offsets: Record<string, { left?: number; right?: number }>;
    indentSize: number;
    selected: boolean;
    expanded: boolean;
    className?: string;
    attributes?: React.HTMLAttributes<HTMLTableRowElement>;
    onClick?: (event: React.MouseEvent<HTMLTableRowElement>) => void;
}

const TableRow = React.memo(function TableRow(props: RowProps) {
    const { prefixCls, row, rowIndex, leafColumns, offsets, indentSize, selected, expanded, className, attributes, onClick } = props;
    const { record, depth } = row;

    const cells: React.ReactNode[] = [];
    leafColumns.forEach((column, columnIndex) => {
        const key = String(column.key);
        const value = getValueByDataIndex(record, column.dataIndex);
        const rendered = column.render ? column.render(value, record, rowIndex) : (value as React.ReactNode);
        const cellAttributes = column.onCell?.(record, rowIndex) ?? {};

        let children: React.ReactNode = rendered as React.ReactNode;
        let rowSpan = cellAttributes.rowSpan;
        let colSpan = cellAttributes.colSpan;
        if (isSpanCell(rendered)) {
            children = rendered.children as React.ReactNode;
            rowSpan = rendered.props.rowSpan ?? rowSpan;
            colSpan = rendered.props.colSpan ?? colSpan;
        }
        if (rowSpan === 0 || colSpan === 0) {
            return;
        }

        const fixed = normalizeFixed(column.fixed);
        const ellipsis = column.ellipsis;
        const showTitle = typeof ellipsis === 'object' ? ellipsis.showTitle !== false : Boolean(ellipsis);
        const indent = columnIndex === 0 && depth > 0 ? <span className={`${prefixCls}-indent`} style={{ paddingLeft: depth * indentSize }} /> : null;

        cells.push(
            <td
                key={key}
                {...cellAttributes}
                rowSpan={rowSpan}
                colSpan={colSpan}
                className={cls(`${prefixCls}-cell`, column.className, cellAttributes.className, `${prefixCls}-align-${column.align ?? 'left'}`, {
                    [`${prefixCls}-cell-ellipsis`]: Boolean(ellipsis),
                    [`${prefixCls}-cell-fixed-${fixed}`]: fixed !== null,
                })}
                style={fixed ? { position: 'sticky', ...offsets[key], ...cellAttributes.style } : cellAttributes.style}
                title={showTitle && (typeof children === 'string' || typeof children === 'number') ? String(children) : undefined}
            >
                {indent}
                {children}
            </td>,
        );
    });

    return (
        <tr
            {...attributes}
            data-row-key={String(row.key)}
            data-row-index={rowIndex}
            aria-selected={selected || undefined}
            aria-expanded={expanded || undefined}
            aria-level={depth > 0 ? depth + 1 : undefined}
            className={cls(`${prefixCls}-row`, `${prefixCls}-row-level-${depth}`, className, attributes?.className, {
                [`${prefixCls}-row-selected`]: selected,
            })}
            onClick={(event) => {
                onClick?.(event);
                attributes?.onClick?.(event);
            }}
        >
            {cells}
        </tr>
    );
});

function useVirtualWindow(total: number, itemSize: number, overscan: number, container: React.RefObject<HTMLDivElement | null>, enabled: boolean) {
    const [range, setRange] = React.useState<[number, number]>([0, Math.min(total, 30)]);

    React.useLayoutEffect(() => {
        const element = container.current;
        if (!enabled || !element) {
            return undefined;
        }
        const update = () => {
            const start = Math.max(0, Math.floor(element.scrollTop / itemSize) - overscan);
            const visible = Math.ceil(element.clientHeight / itemSize) + overscan * 2;
            setRange([start, Math.min(total, start + visible)]);
        };
        update();
        element.addEventListener('scroll', update, { passive: true });
        return () => element.removeEventListener('scroll', update);
    }, [container, enabled, itemSize, overscan, total]);

    return enabled ? range : ([0, total] as [number, number]);
}

const TableBody = React.forwardRef<HTMLDivElement, TableBodyProps>(function TableBody(props, ref) {
    const {
        prefixCls,
        columns,
        rows,
        rowClassName,
        selectedRowKeys,
        expandedRowKeys,
        expandedRowRender,
        expandRowByClick,
        onExpand,
        indentSize,
        scroll,
        virtualized,
        itemSize,
        overscan = numbers.DEFAULT_OVERSCAN,
        summary,
        empty,
        onRow,
        onScroll,
    } = props;

    const innerRef = React.useRef<HTMLDivElement | null>(null);
    React.useImperativeHandle(ref, () => innerRef.current as HTMLDivElement);

    const leafColumns = React.useMemo(() => flattenColumns(columns), [columns]);
    const offsets = React.useMemo(() => getFixedOffsets(leafColumns), [leafColumns]);
    const selected = React.useMemo(() => new Set(selectedRowKeys), [selectedRowKeys]);
    const expanded = React.useMemo(() => new Set(expandedRowKeys), [expandedRowKeys]);
    const [start, end] = useVirtualWindow(rows.length, itemSize, overscan, innerRef, virtualized);

    const renderRow = (row: FlatRow<any>, rowIndex: number) => {
        const isExpanded = expanded.has(row.key);
        const className = typeof rowClassName === 'function' ? rowClassName(row.record, rowIndex) : rowClassName;
        const nodes = [
            <TableRow
                key={String(row.key)}
                prefixCls={prefixCls}
                row={row}
                rowIndex={rowIndex}
                leafColumns={leafColumns}
                offsets={offsets}
                indentSize={indentSize}
                selected={selected.has(row.key)}
                expanded={isExpanded}
                className={className}
                attributes={onRow?.(row.record, rowIndex)}
                onClick={expandRowByClick ? (event) => onExpand(row.record, event) : undefined}
            />,
        ];
        if (expandedRowRender && isExpanded) {
            nodes.push(
                <tr key={`${String(row.key)}-expanded`} className={`${prefixCls}-expanded-row`}>
                    <td colSpan={leafColumns.length}>{expandedRowRender(row.record, rowIndex, true)}</td>
                </tr>,
            );
        }
        return nodes;
    };

    const visibleRows = rows.slice(start, end);
    const paddingTop = virtualized ? start * itemSize : 0;
    const paddingBottom = virtualized ? (rows.length - end) * itemSize : 0;

    return (
        <div
            ref={innerRef}
            className={`${prefixCls}-body`}
            style={{ maxHeight: scroll?.y, overflowY: scroll?.y ? 'auto' : undefined, overflowX: scroll?.x ? 'auto' : undefined }}
            onScroll={onScroll}
        >
            <table style={{ width: scroll?.x === true ? 'max-content' : scroll?.x }}>
                <colgroup>
                    {leafColumns.map((column) => (
                        <col key={String(column.key)} style={{ width: column.width, minWidth: column.minWidth }} />
                    ))}
                </colgroup>
                <tbody className={`${prefixCls}-tbody`}>
                    {paddingTop > 0 ? <tr aria-hidden="true" style={{ height: paddingTop }} /> : null}
                    {visibleRows.map((row, offset) => renderRow(row, start + offset))}
                    {paddingBottom > 0 ? <tr aria-hidden="true" style={{ height: paddingBottom }} /> : null}
                    {empty ? (
                        <tr className={`${prefixCls}-placeholder-row`}>
                            <td colSpan={leafColumns.length}>{empty}</td>
                        </tr>
                    ) : null}
                </tbody>
                {summary ? <tfoot className={`${prefixCls}-summary`}>{summary}</tfoot> : null}
            </table>
        </div>
    );
});

export default TableBody;
