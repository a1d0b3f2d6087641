import React from 'react';
import { isSameDay } from 'date-fns';
import { cls } from '../_utils/classNames';
import { BASE_CLASS_PREFIX } from '../_utils/constants';
import { getMonthMatrix } from './calendar';
import type { WeekStart } from './calendar';

const prefixCls = `${BASE_CLASS_PREFIX}-datepicker`;

export interface MonthGridProps {
    month: Date;
    selected: Date | null;
    weekStartsOn: WeekStart;
    weekdays: string[];
    disabledDate?: (date: Date) => boolean;
    onSelect: (date: Date) => void;
}

/** Six-week grid of days for one month, as used inside the DatePicker panel. */
export default function MonthGrid(props: MonthGridProps) {
    const { month, selected, weekStartsOn, weekdays, disabledDate, onSelect } = props;

    return (
        <table role="grid">
            <thead>
                <tr>
                    {weekdays.map((label) => (
                        <th key={label} scope="col">
                            {label}
                        </th>
                    ))}
                </tr>
            </thead>
            <tbody>
                {getMonthMatrix(month, weekStartsOn).map((week, row) => (
                    <tr key={row}>
                        {week.map(({ date, inMonth, today }) => {
                            const isSelected = selected !== null && isSameDay(date, selected);
                            return (
                                <td key={date.toISOString()} role="gridcell" aria-selected={isSelected}>
                                    <button
                                        type="button"
                                        disabled={disabledDate?.(date) ?? false}
                                        className={cls(`${prefixCls}-day`, {
                                            [`${prefixCls}-day-outside`]: !inMonth,
                                            [`${prefixCls}-day-today`]: today,
                                            [`${prefixCls}-day-selected`]: isSelected,
                                        })}
                                        onClick={() => onSelect(date)}
                                    >
                                        {date.getDate()}
                                    </button>
                                </td>
                            );
                        })}
                    </tr>
                ))}
            </tbody>
        </table>
    );
}
