import Form, { useFormApi, useFormState } from './Form';
import FormSection from './Section';
import { ArrayField, withField } from './Field';
import Input, { TextArea } from '../Input';
import Select from '../Select';
import Checkbox, { CheckboxGroup } from '../Checkbox';
import DatePicker from '../DatePicker';

const FormInput = withField(Input);
const FormTextArea = withField(TextArea);
const FormSelect = withField(Select);
const FormCheckbox = withField(Checkbox, { valueProp: 'checked' });
const FormCheckboxGroup = withField(CheckboxGroup);
const FormDatePicker = withField(DatePicker);

type FormComponent = typeof Form & {
    Input: typeof FormInput;
    TextArea: typeof FormTextArea;
    Select: typeof FormSelect;
    Checkbox: typeof FormCheckbox;
    CheckboxGroup: typeof FormCheckboxGroup;
    DatePicker: typeof FormDatePicker;
    Section: typeof FormSection;
    ArrayField: typeof ArrayField;
};

const ExportedForm = Form as FormComponent;
ExportedForm.Input = FormInput;
ExportedForm.TextArea = FormTextArea;
ExportedForm.Select = FormSelect;
ExportedForm.Checkbox = FormCheckbox;
ExportedForm.CheckboxGroup = FormCheckboxGroup;
ExportedForm.DatePicker = FormDatePicker;
ExportedForm.Section = FormSection;
ExportedForm.ArrayField = ArrayField;

export default ExportedForm;
export { withField, ArrayField, FormSection, useFormApi, useFormState };
export type { FormProps, FormApi, LabelPosition, ValidateTrigger } from './Form';
export type { FieldProps, ArrayFieldProps } from './Field';
export type { FormSectionProps } from './Section';
export type { Rule, RuleType } from './rules';
export type { FormValues, FormErrors } from './formStore';
