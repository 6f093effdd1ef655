import type { Product, ProductCreate } from '@admin/shared';
import { productResource } from '@admin/shared/resources/products';
import { Alert, Button, Group, Stack, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useVeeForm } from '../../components/forms/use-vee-form.ts';
import { usePanelForm } from '../../components/side-panel.tsx';
import { api } from '../../lib/http.ts';

type FormValues = { name: string; code: string; category: string; description: string };

const toBody = (v: Partial<FormValues>) =>
  Object.fromEntries(Object.entries(v).map(([k, x]) => [k, x.trim() === '' ? null : x.trim()])) as ProductCreate;

/** Create or edit a product of the current client (docs/screens.md, Product). */
export function ProductForm(props: { product: Product | null; onSaved(p: Product): void; onCancel(): void }) {
  const p = props.product;
  const { form, veeErrors, errorFromSave, changedValues } = useVeeForm<FormValues>({
    defaultValues: { name: p?.name ?? '', code: p?.code ?? '', category: p?.category ?? '', description: p?.description ?? '' },
    rules: productResource.rules,
    names: productResource.labels,
  });
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, formState } = form;
  const err = (f: keyof FormValues) => veeErrors.first(f) ?? undefined;
  const cancel = usePanelForm(formState.isDirty, props.onCancel);

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const { data } = p
        ? await api.patch<{ data: Product }>(`/api/product/${p.id}`, { ...toBody(changedValues(values)), updated_at: p.updated_at })
        : await api.post<{ data: Product }>('/api/product', toBody(values));
      props.onSaved(data);
    } catch (e) {
      setFormError(errorFromSave(e));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm">
        {formError && (
          <Alert color="red" variant="light" role="alert">
            {formError}
          </Alert>
        )}
        <TextInput label="Name" required {...register('name')} error={err('name')} />
        <TextInput label="Code" required description="Maps the feed's product_code" {...register('code')} error={err('code')} />
        <TextInput label="Category" {...register('category')} error={err('category')} />
        <Textarea label="Description" autosize minRows={2} {...register('description')} error={err('description')} />
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={cancel}>
            Cancel
          </Button>
          <Button type="submit" loading={formState.isSubmitting}>
            {p ? 'Save changes' : 'Create product'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
