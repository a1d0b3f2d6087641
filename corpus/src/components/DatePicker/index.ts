export { default } from './DatePicker';
export { getMonthMatrix, formatValue, parseValue } from './calendar';
export type { DatePickerProps, DatePreset } from './DatePicker';
export type { WeekStart, CalendarDay } from './calendar';
