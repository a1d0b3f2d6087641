import { addDays, endOfMonth, format as formatDate, isSameDay, isValid, parse, startOfMonth, startOfWeek } from 'date-fns';

export type WeekStart = 0 | 1 | 2 | 3 | 4 | 5 | 6;

export interface CalendarDay {
    date: Date;
    inMonth: boolean;
    today: boolean;
}

/**
 * Six weeks of days covering `month`, starting on `weekStartsOn`.
 * Always 42 cells so the panel height does not jump between months.
 */
export function getMonthMatrix(month: Date, weekStartsOn: WeekStart, now: Date = new Date()): CalendarDay[][] {
    const first = startOfWeek(startOfMonth(month), { weekStartsOn });
    const last = endOfMonth(month);
    const weeks: CalendarDay[][] = [];
    for (let week = 0; week < 6; week += 1) {
        const days: CalendarDay[] = [];
        for (let day = 0; day < 7; day += 1) {
            const date = addDays(first, week * 7 + day);
            days.push({ date, inMonth: date.getMonth() === month.getMonth() && date <= last, today: isSameDay(date, now) });
        }
        weeks.push(days);
    }
    return weeks;
}

export function formatValue(value: Date | null, pattern: string): string {
    return value && isValid(value) ? formatDate(value, pattern) : '';
}

/** Parse typed text; returns `null` until it matches `pattern` completely. */
export function parseValue(text: string, pattern: string, reference: Date = new Date()): Date | null {
    if (!text.trim()) {
        return null;
    }
    const parsed = parse(text.trim(), pattern, reference);
    return isValid(parsed) && formatDate(parsed, pattern) === text.trim() ? parsed : null;
}

export function getWeekdayLabels(weekStartsOn: WeekStart, locale = 'en-US'): string[] {
    const formatter = new Intl.DateTimeFormat(locale, { weekday: 'short' });
    const sunday = new Date(2023, 0, 1);
    return Array.from({ length: 7 }, (_, index) => formatter.format(addDays(sunday, (index + weekStartsOn) % 7)));
}
